//! CUDA 13.5 additions outside the resource family: new enums and structs,
//! the enumerators 13.5 added to enums of 13.0, and the values 13.5 moved.
//! (Members 13.5 added to structs of 13.0 are in those structs' files,
//! marked `since 13050`.)
use super::*;

/// The callback of `cudaGraphRecaptureCallbackData`: called for a node
/// whose parameters the recapture changed, with the node, its old and new
/// parameters and whether the change can be applied to an instantiated
/// graph. The driver's `CUgraphRecaptureCallback` has the same shape.
pub type cudaGraphRecaptureCallback_t = Option<
    unsafe extern "C" fn(
        data: *mut c_void,
        node: cudaGraphNode_t,
        originalParams: *const cudaGraphNodeParams,
        recaptureParams: *const cudaGraphNodeParams,
        status: cudaGraphRecaptureStatus,
    ) -> cudaError_t,
>;

abi! {
    types {
        /// Parameters of a batch memcpy node (`cudaGraphNodeTypeMemcpyBatch`).
        pub struct cudaMemcpyBatchNodeParams {
            pub count: usize,
            pub dsts: *mut *mut c_void,
            pub srcs: *mut *mut c_void,
            pub sizes: *mut usize,
            pub attrs: *mut cudaMemcpyAttributes,
            pub attrsIdxs: *mut usize,
            pub numAttrs: usize,
            pub ctx: cudaExecutionContext_t,
        }
        /// The callback `cudaStreamBeginRecaptureToGraph` calls for each
        /// node whose parameters changed.
        pub struct cudaGraphRecaptureCallbackData {
            pub callbackFunc: cudaGraphRecaptureCallback_t,
            pub userData: *mut c_void,
        }
    }
    enums {
        pub enum cudaGraphRecaptureStatus: u32 {
            cudaGraphRecaptureEligibleForUpdate = 0,
            cudaGraphRecaptureIneligibleForUpdate = 1,
            cudaGraphRecaptureError = 2,
        }
        /// How a host node or `cudaLaunchHostFunc_v2` waits for its work.
        pub enum cudaHostTaskSyncMode: u32 {
            cudaHostTaskBlocking = 0,
            cudaHostTaskSpinWait = 1,
        }
        pub enum cudaSharedMemoryMode: u32 {
            cudaSharedMemoryModeDefault = 0,
            cudaSharedMemoryModeRequirePortable = 1,
            cudaSharedMemoryModeAllowNonPortable = 2,
            cudaSharedMemoryModeAllowOversizedSharedMemory = 3,
            cudaSharedMemoryModePreferOversizedSharedMemory = 4,
        }
        /// What `cudaKernelNodeParamsV2::func` holds.
        pub enum cudaKernelFunctionType: u32 {
            cudaKernelFunctionTypeUnspecified = 0,
            cudaKernelFunctionTypeDeviceEntry = 1,
            cudaKernelFunctionTypeKernel = 2,
            cudaKernelFunctionTypeFunction = 3,
        }
        pub enum cudaLaunchAttributePortableClusterMode: u32 {
            cudaLaunchPortableClusterModeDefault = 0,
            cudaLaunchPortableClusterModeRequirePortable = 1,
            cudaLaunchPortableClusterModeAllowNonPortable = 2,
        }
        pub enum cudaFabricOpStatusSource: u32 {
            cudaFabricOpStatusSourceMbarrierV1 = 0,
            cudaFabricOpStatusSourceMax = 0x7FFF_FFFF,
        }
        pub enum cudaFabricOpStatusInfo: u32 {
            cudaFabricOpStatusInfoSuccess = 0,
            cudaFabricOpStatusInfoLast = 0,
            cudaFabricOpStatusInfoMax = 0x7FFF_FFFF,
        }
    }
    consts {
    }
    extends {
        impl cudaDeviceAttr {
            cudaDevAttrAtomicReductionSupported = 148,
            cudaDevAttrLocalityDomainCount = 149,
            cudaDevAttrOversizedSharedMemoryPerBlock = 150,
            cudaDevAttrCigStreamsSupported = 151,
            cudaDevAttrLocalityDomainMultiprocessorCount = 157,
            cudaDevAttrTensorMapLargeTensorMinSize = 160,
        }
        impl cudaLimit {
            cudaLimitPerBlockMemorySize = 0x0A,
        }
        impl cudaMemPoolAttr {
            cudaMemPoolAttrAllocationType = 0x9,
            cudaMemPoolAttrExportHandleTypes = 0xA,
            cudaMemPoolAttrLocationId = 0xB,
            cudaMemPoolAttrLocationType = 0xC,
            cudaMemPoolAttrMaxPoolSize = 0xD,
            cudaMemPoolAttrHwDecompressEnabled = 0xE,
            cudaMemPoolAttrLocalityDomainId = 0xF,
        }
        impl cudaMemLocationType {
            cudaMemLocationTypeInvisible = 5,
            cudaMemLocationTypeDeviceLocalityDomain = 6,
        }
        impl cudaFuncAttribute {
            cudaFuncAttributeSharedMemoryMode = 16,
        }
        impl cudaClusterSchedulingPolicy {
            cudaClusterSchedulingPolicyRubinDsmemLocality = 3,
        }
        impl cudaLaunchAttributeID {
            cudaLaunchAttributePortableClusterSizeMode = 17,
            cudaLaunchAttributeSharedMemoryMode = 18,
        }
        impl cudaGraphNodeType {
            cudaGraphNodeTypeMemcpyBatch = 0x0e,
            cudaGraphNodeTypeReserved16 = 0x10,
            cudaGraphNodeTypeExternalEngine = 0x11,
        }
        impl cudaGraphChildGraphNodeOwnership {
            cudaGraphChildGraphOwnershipInvalid = -1,
        }
        impl cudaGraphDebugDotFlags {
            cudaGraphDebugDotFlagsMemcpyBatchNodeParams = 1 << 16,
        }
        impl cudaChannelFormatKind {
            cudaChannelFormatKindUnsigned8Packed422 = 32,
            cudaChannelFormatKindUnsigned8Packed444 = 33,
            cudaChannelFormatKindUnsigned8SemiPlanar420 = 34,
            cudaChannelFormatKindUnsigned16SemiPlanar420 = 35,
            cudaChannelFormatKindUnsigned8SemiPlanar422 = 36,
            cudaChannelFormatKindUnsigned16SemiPlanar422 = 37,
            cudaChannelFormatKindUnsigned8SemiPlanar444 = 38,
            cudaChannelFormatKindUnsigned16SemiPlanar444 = 39,
            cudaChannelFormatKindUnsigned8Planar420 = 40,
            cudaChannelFormatKindUnsigned16Planar420 = 41,
            cudaChannelFormatKindUnsigned8Planar422 = 42,
            cudaChannelFormatKindUnsigned16Planar422 = 43,
            cudaChannelFormatKindUnsigned8Planar444 = 44,
            cudaChannelFormatKindUnsigned16Planar444 = 45,
        }
    }
    revalues {
        cudaDeviceAttr::cudaDevAttrMax = 161;
        cudaFuncAttribute::cudaFuncAttributeMax = 17;
        cudaGraphNodeType::cudaGraphNodeTypeCount = 18;
        ; const CUDART_VERSION = 13050;
    }
}
