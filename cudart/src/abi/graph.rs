//! Graphs: handles, node types, the node parameter structs (v1 and the
//! `cudaGraphNodeParams` v2 union), instantiation and update results.
use super::*;

/// A graph; the driver's `CUgraph`.
pub type cudaGraph_t = *mut c_void;
/// A graph node; the driver's `CUgraphNode`.
pub type cudaGraphNode_t = *mut c_void;
/// An instantiated graph; the driver's `CUgraphExec`.
pub type cudaGraphExec_t = *mut c_void;
/// A device-updatable kernel node; the driver's `CUgraphDeviceNode`.
pub type cudaGraphDeviceNode_t = *mut c_void;
/// Handle of a conditional node's condition.
pub type cudaGraphConditionalHandle = u64;

abi! {
    types {
        pub struct cudaKernelNodeParams {
            pub func: *mut c_void,
            pub gridDim: dim3,
            pub blockDim: dim3,
            pub sharedMemBytes: u32,
            pub kernelParams: *mut *mut c_void,
            pub extra: *mut *mut c_void,
        }
        /// 13.5 names what was padding: `func` is then one member of an
        /// anonymous union (`kern`, `cuFunc`, as `functionType` says), and
        /// `ctx` and `functionType` follow `extra`.
        pub struct cudaKernelNodeParamsV2 {
            pub func: *mut c_void,
            pub gridDim: dim3,
            pub blockDim: dim3,
            pub sharedMemBytes: u32,
            pub kernelParams: *mut *mut c_void,
            pub extra: *mut *mut c_void,
            since 13050 pub ctx: cudaExecutionContext_t,
            since 13050 pub functionType: cudaKernelFunctionType,
        }
        /// 13.0 has `int reserved[3]` after `flags`; 13.5 one `int` and `ctx`.
        pub struct cudaMemcpyNodeParams {
            pub flags: i32,
            since 13050 pub reserved: i32,
            since 13050 pub ctx: cudaExecutionContext_t,
            pub copyParams: cudaMemcpy3DParms,
        }
        pub struct cudaMemsetParams {
            pub dst: *mut c_void,
            pub pitch: usize,
            pub value: u32,
            pub elementSize: u32,
            pub width: usize,
            pub height: usize,
        }
        pub struct cudaMemsetParamsV2 {
            pub dst: *mut c_void,
            pub pitch: usize,
            pub value: u32,
            pub elementSize: u32,
            pub width: usize,
            pub height: usize,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaHostNodeParams {
            pub fn_: cudaHostFn_t as "fn",
            pub userData: *mut c_void,
        }
        pub struct cudaHostNodeParamsV2 {
            pub fn_: cudaHostFn_t as "fn",
            pub userData: *mut c_void,
            since 13050 pub syncMode: u32,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaMemAllocNodeParams {
            pub poolProps: cudaMemPoolProps,
            pub accessDescs: *const cudaMemAccessDesc,
            pub accessDescCount: usize,
            pub bytesize: usize,
            pub dptr: *mut c_void,
        }
        pub struct cudaMemAllocNodeParamsV2 {
            pub poolProps: cudaMemPoolProps,
            pub accessDescs: *const cudaMemAccessDesc,
            pub accessDescCount: usize,
            pub bytesize: usize,
            pub dptr: *mut c_void,
        }
        pub struct cudaMemFreeNodeParams {
            pub dptr: *mut c_void,
        }
        pub struct cudaExternalSemaphoreSignalNodeParams {
            pub extSemArray: *mut cudaExternalSemaphore_t,
            pub paramsArray: *const cudaExternalSemaphoreSignalParams,
            pub numExtSems: u32,
        }
        pub struct cudaExternalSemaphoreSignalNodeParamsV2 {
            pub extSemArray: *mut cudaExternalSemaphore_t,
            pub paramsArray: *const cudaExternalSemaphoreSignalParams,
            pub numExtSems: u32,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaExternalSemaphoreWaitNodeParams {
            pub extSemArray: *mut cudaExternalSemaphore_t,
            pub paramsArray: *const cudaExternalSemaphoreWaitParams,
            pub numExtSems: u32,
        }
        pub struct cudaExternalSemaphoreWaitNodeParamsV2 {
            pub extSemArray: *mut cudaExternalSemaphore_t,
            pub paramsArray: *const cudaExternalSemaphoreWaitParams,
            pub numExtSems: u32,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaConditionalNodeParams {
            pub handle: cudaGraphConditionalHandle,
            pub type_: cudaGraphConditionalNodeType as "type",
            pub size: u32,
            pub phGraph_out: *mut cudaGraph_t,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaChildGraphNodeParams {
            pub graph: cudaGraph_t,
            pub ownership: cudaGraphChildGraphNodeOwnership,
        }
        pub struct cudaEventRecordNodeParams {
            pub event: cudaEvent_t,
            since 13050 pub ctx: cudaExecutionContext_t,
        }
        pub struct cudaEventWaitNodeParams {
            pub event: cudaEvent_t,
        }
        /// The per-type parameters of `cudaGraphNodeParams`. C declares this
        /// union anonymously; its first member is `reserved1`.
        pub union cudaGraphNodeParams_u as "" {
            pub reserved1: [i64; 29],
            pub kernel: cudaKernelNodeParamsV2,
            pub memcpy: cudaMemcpyNodeParams,
            pub memset: cudaMemsetParamsV2,
            pub host: cudaHostNodeParamsV2,
            pub graph: cudaChildGraphNodeParams,
            pub eventWait: cudaEventWaitNodeParams,
            pub eventRecord: cudaEventRecordNodeParams,
            pub extSemSignal: cudaExternalSemaphoreSignalNodeParamsV2,
            pub extSemWait: cudaExternalSemaphoreWaitNodeParamsV2,
            pub alloc: cudaMemAllocNodeParamsV2,
            pub free: cudaMemFreeNodeParams,
            pub conditional: cudaConditionalNodeParams,
            since 13050 pub memcpyBatch: cudaMemcpyBatchNodeParams,
        }
        /// Parameters of any graph node (`cudaGraphAddNode`), 256 bytes.
        pub struct cudaGraphNodeParams {
            pub type_: cudaGraphNodeType as "type",
            pub reserved0: [i32; 3],
            pub u: cudaGraphNodeParams_u as "reserved1",
            pub reserved2: i64,
        }
        /// Data of one graph edge.
        pub struct cudaGraphEdgeData {
            pub from_port: u8,
            pub to_port: u8,
            pub type_: u8 as "type",
            pub reserved: [u8; 5],
        }
        /// `cudaGraphInstantiateWithParams` in/out parameters.
        pub struct cudaGraphInstantiateParams {
            pub flags: u64,
            pub uploadStream: cudaStream_t,
            pub errNode_out: cudaGraphNode_t,
            pub result_out: cudaGraphInstantiateResult,
        }
        /// What `cudaGraphExecUpdate` reports.
        pub struct cudaGraphExecUpdateResultInfo {
            pub result: cudaGraphExecUpdateResult,
            pub errorNode: cudaGraphNode_t,
            pub errorFromNode: cudaGraphNode_t,
        }
        pub struct cudaGraphKernelNodeUpdate_param
            as "decltype(decltype(cudaGraphKernelNodeUpdate::updateData)::param)"
        {
            pub pValue: *const c_void,
            pub offset: usize,
            pub size: usize,
        }
        pub union cudaGraphKernelNodeUpdate_updateData
            as "decltype(cudaGraphKernelNodeUpdate::updateData)"
        {
            pub param: cudaGraphKernelNodeUpdate_param,
            pub gridDim: dim3,
            pub isEnabled: u32,
        }
        /// One device-side kernel node update.
        pub struct cudaGraphKernelNodeUpdate {
            pub node: cudaGraphDeviceNode_t,
            pub field: cudaGraphKernelNodeField,
            pub updateData: cudaGraphKernelNodeUpdate_updateData,
        }
    }
    enums {
        pub enum cudaGraphNodeType: u32 {
            cudaGraphNodeTypeKernel = 0x00,
            cudaGraphNodeTypeMemcpy = 0x01,
            cudaGraphNodeTypeMemset = 0x02,
            cudaGraphNodeTypeHost = 0x03,
            cudaGraphNodeTypeGraph = 0x04,
            cudaGraphNodeTypeEmpty = 0x05,
            cudaGraphNodeTypeWaitEvent = 0x06,
            cudaGraphNodeTypeEventRecord = 0x07,
            cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
            cudaGraphNodeTypeExtSemaphoreWait = 0x09,
            cudaGraphNodeTypeMemAlloc = 0x0a,
            cudaGraphNodeTypeMemFree = 0x0b,
            cudaGraphNodeTypeConditional = 0x0d,
            cudaGraphNodeTypeCount = 14,
        }
        pub enum cudaGraphConditionalHandleFlags: u32 {
            cudaGraphCondAssignDefault = 1,
        }
        pub enum cudaGraphConditionalNodeType: u32 {
            cudaGraphCondTypeIf = 0,
            cudaGraphCondTypeWhile = 1,
            cudaGraphCondTypeSwitch = 2,
        }
        pub enum cudaGraphChildGraphNodeOwnership: i32 {
            cudaGraphChildGraphOwnershipClone = 0,
            cudaGraphChildGraphOwnershipMove = 1,
        }
        pub enum cudaGraphExecUpdateResult: u32 {
            cudaGraphExecUpdateSuccess = 0x0,
            cudaGraphExecUpdateError = 0x1,
            cudaGraphExecUpdateErrorTopologyChanged = 0x2,
            cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
            cudaGraphExecUpdateErrorFunctionChanged = 0x4,
            cudaGraphExecUpdateErrorParametersChanged = 0x5,
            cudaGraphExecUpdateErrorNotSupported = 0x6,
            cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
            cudaGraphExecUpdateErrorAttributesChanged = 0x8,
        }
        pub enum cudaGraphKernelNodeField: u32 {
            cudaGraphKernelNodeFieldInvalid = 0,
            cudaGraphKernelNodeFieldGridDim = 1,
            cudaGraphKernelNodeFieldParam = 2,
            cudaGraphKernelNodeFieldEnabled = 3,
        }
        pub enum cudaGraphDebugDotFlags: u32 {
            cudaGraphDebugDotFlagsVerbose = 1 << 0,
            cudaGraphDebugDotFlagsKernelNodeParams = 1 << 2,
            cudaGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
            cudaGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
            cudaGraphDebugDotFlagsHostNodeParams = 1 << 5,
            cudaGraphDebugDotFlagsEventNodeParams = 1 << 6,
            cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
            cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
            cudaGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
            cudaGraphDebugDotFlagsHandles = 1 << 10,
            cudaGraphDebugDotFlagsConditionalNodeParams = 1 << 15,
        }
        pub enum cudaGraphInstantiateFlags: u32 {
            cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
            cudaGraphInstantiateFlagUpload = 2,
            cudaGraphInstantiateFlagDeviceLaunch = 4,
            cudaGraphInstantiateFlagUseNodePriority = 8,
        }
        pub enum cudaGraphMemAttributeType: u32 {
            cudaGraphMemAttrUsedMemCurrent = 0x0,
            cudaGraphMemAttrUsedMemHigh = 0x1,
            cudaGraphMemAttrReservedMemCurrent = 0x2,
            cudaGraphMemAttrReservedMemHigh = 0x3,
        }
        pub enum cudaGraphDependencyType: u32 {
            cudaGraphDependencyTypeDefault = 0,
            cudaGraphDependencyTypeProgrammatic = 1,
        }
        pub enum cudaGraphInstantiateResult: u32 {
            cudaGraphInstantiateSuccess = 0,
            cudaGraphInstantiateError = 1,
            cudaGraphInstantiateInvalidStructure = 2,
            cudaGraphInstantiateNodeOperationNotSupported = 3,
            cudaGraphInstantiateMultipleDevicesNotSupported = 4,
            cudaGraphInstantiateConditionalHandleUnused = 5,
        }
    }
    consts {
        /// Ports of a kernel node's outgoing edges (`cudaGraphEdgeData`).
        pub const cudaGraphKernelNodePortDefault: u8 = 0;
        pub const cudaGraphKernelNodePortProgrammatic: u8 = 1;
        pub const cudaGraphKernelNodePortLaunchCompletion: u8 = 2;
        /// `cudaGraphInstantiateWithFlags` flags (the enumerators, as the
        /// `unsigned long long` the call takes).
        pub const cudaGraphInstantiateFlagAutoFreeOnLaunch: u64 = 1;
        pub const cudaGraphInstantiateFlagUpload: u64 = 2;
        pub const cudaGraphInstantiateFlagDeviceLaunch: u64 = 4;
        pub const cudaGraphInstantiateFlagUseNodePriority: u64 = 8;
    }
}
