//! Memory: copies, pointers, pools, IPC handles, managed memory, arrays'
//! memory requirements, and the allocation/registration flags.
use super::*;

/// Opaque CUDA array (`struct cudaArray *`).
pub type cudaArray_t = *mut c_void;
pub type cudaArray_const_t = *const c_void;
/// Opaque mipmapped CUDA array (`struct cudaMipmappedArray *`).
pub type cudaMipmappedArray_t = *mut c_void;
pub type cudaMipmappedArray_const_t = *const c_void;
/// A memory pool; the driver's `CUmemoryPool`.
pub type cudaMemPool_t = *mut c_void;

abi! {
    types {
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaPitchedPtr {
            pub ptr: *mut c_void,
            pub pitch: usize,
            pub xsize: usize,
            pub ysize: usize,
        }
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaExtent {
            pub width: usize,
            pub height: usize,
            pub depth: usize,
        }
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaPos {
            pub x: usize,
            pub y: usize,
            pub z: usize,
        }
        pub struct cudaMemcpy3DParms {
            pub srcArray: cudaArray_t,
            pub srcPos: cudaPos,
            pub srcPtr: cudaPitchedPtr,
            pub dstArray: cudaArray_t,
            pub dstPos: cudaPos,
            pub dstPtr: cudaPitchedPtr,
            pub extent: cudaExtent,
            pub kind: cudaMemcpyKind,
        }
        pub struct cudaMemcpy3DPeerParms {
            pub srcArray: cudaArray_t,
            pub srcPos: cudaPos,
            pub srcPtr: cudaPitchedPtr,
            pub srcDevice: i32,
            pub dstArray: cudaArray_t,
            pub dstPos: cudaPos,
            pub dstPtr: cudaPitchedPtr,
            pub dstDevice: i32,
            pub extent: cudaExtent,
        }
        pub struct cudaPointerAttributes {
            pub type_: cudaMemoryType as "type",
            pub device: i32,
            pub devicePointer: *mut c_void,
            pub hostPointer: *mut c_void,
            until 13000 pub reserved: [c_long; 8],
        }
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaMemLocation {
            pub type_: cudaMemLocationType as "type",
            pub id: i32,
        }
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaMemAccessDesc {
            pub location: cudaMemLocation,
            pub flags: cudaMemAccessFlags,
        }
        pub struct cudaMemPoolProps {
            pub allocType: cudaMemAllocationType,
            pub handleTypes: cudaMemAllocationHandleType,
            pub location: cudaMemLocation,
            pub win32SecurityAttributes: *mut c_void,
            pub maxSize: usize,
            pub usage: u16,
            until 13000 pub reserved: [u8; 54],
        }
        pub struct cudaMemPoolPtrExportData {
            pub reserved: [u8; 64],
        }
        pub struct cudaAccessPolicyWindow {
            pub base_ptr: *mut c_void,
            pub num_bytes: usize,
            pub hitRatio: f32,
            pub hitProp: cudaAccessProperty,
            pub missProp: cudaAccessProperty,
        }
        /// The extent of one sparse tile.
        pub struct cudaArraySparseProperties_tileExtent
            as "decltype(cudaArraySparseProperties::tileExtent)"
        {
            pub width: u32,
            pub height: u32,
            pub depth: u32,
        }
        pub struct cudaArraySparseProperties {
            pub tileExtent: cudaArraySparseProperties_tileExtent,
            pub miptailFirstLevel: u32,
            pub miptailSize: u64,
            pub flags: u32,
            pub reserved: [u32; 4],
        }
        pub struct cudaArrayMemoryRequirements {
            pub size: usize,
            pub alignment: usize,
            pub reserved: [u32; 4],
        }
        pub struct cudaMemcpyAttributes {
            pub srcAccessOrder: cudaMemcpySrcAccessOrder,
            pub srcLocHint: cudaMemLocation,
            pub dstLocHint: cudaMemLocation,
            pub flags: u32,
        }
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaOffset3D {
            pub x: usize,
            pub y: usize,
            pub z: usize,
        }
        /// Operand given by pointer.
        pub struct cudaMemcpy3DOperand_op_ptr as "decltype(decltype(cudaMemcpy3DOperand::op)::ptr)" {
            pub ptr: *mut c_void,
            pub rowLength: usize,
            pub layerHeight: usize,
            pub locHint: cudaMemLocation,
        }
        /// Operand given by CUDA array.
        pub struct cudaMemcpy3DOperand_op_array as "decltype(decltype(cudaMemcpy3DOperand::op)::array)" {
            pub array: cudaArray_t,
            pub offset: cudaOffset3D,
        }
        /// The pointer or array operand (the larger, `ptr`, comes first).
        pub union cudaMemcpy3DOperand_op as "decltype(cudaMemcpy3DOperand::op)" {
            pub ptr: cudaMemcpy3DOperand_op_ptr,
            pub array: cudaMemcpy3DOperand_op_array,
        }
        pub struct cudaMemcpy3DOperand {
            pub type_: cudaMemcpy3DOperandType as "type",
            pub op: cudaMemcpy3DOperand_op,
        }
        pub struct cudaMemcpy3DBatchOp {
            pub src: cudaMemcpy3DOperand,
            pub dst: cudaMemcpy3DOperand,
            pub extent: cudaExtent,
            pub srcAccessOrder: cudaMemcpySrcAccessOrder,
            pub flags: u32,
        }
        /// Opaque handle for sharing an allocation between processes.
        pub struct cudaIpcMemHandle_t {
            pub reserved: [c_char; CUDA_IPC_HANDLE_SIZE],
        }
        /// Opaque handle for sharing an event between processes.
        pub struct cudaIpcEventHandle_t {
            pub reserved: [c_char; CUDA_IPC_HANDLE_SIZE],
        }
        /// Opaque fabric handle of an allocation.
        pub struct cudaMemFabricHandle_t {
            pub reserved: [c_char; CUDA_IPC_HANDLE_SIZE],
        }
    }
    enums {
        pub enum cudaMemoryType: u32 {
            cudaMemoryTypeUnregistered = 0,
            cudaMemoryTypeHost = 1,
            cudaMemoryTypeDevice = 2,
            cudaMemoryTypeManaged = 3,
        }
        pub enum cudaMemcpyKind: u32 {
            cudaMemcpyHostToHost = 0,
            cudaMemcpyHostToDevice = 1,
            cudaMemcpyDeviceToHost = 2,
            cudaMemcpyDeviceToDevice = 3,
            cudaMemcpyDefault = 4,
        }
        pub enum cudaAccessProperty: u32 {
            cudaAccessPropertyNormal = 0,
            cudaAccessPropertyStreaming = 1,
            cudaAccessPropertyPersisting = 2,
        }
        pub enum cudaMemoryAdvise: u32 {
            cudaMemAdviseSetReadMostly = 1,
            cudaMemAdviseUnsetReadMostly = 2,
            cudaMemAdviseSetPreferredLocation = 3,
            cudaMemAdviseUnsetPreferredLocation = 4,
            cudaMemAdviseSetAccessedBy = 5,
            cudaMemAdviseUnsetAccessedBy = 6,
        }
        pub enum cudaMemRangeAttribute: u32 {
            cudaMemRangeAttributeReadMostly = 1,
            cudaMemRangeAttributePreferredLocation = 2,
            cudaMemRangeAttributeAccessedBy = 3,
            cudaMemRangeAttributeLastPrefetchLocation = 4,
            cudaMemRangeAttributePreferredLocationType = 5,
            cudaMemRangeAttributePreferredLocationId = 6,
            cudaMemRangeAttributeLastPrefetchLocationType = 7,
            cudaMemRangeAttributeLastPrefetchLocationId = 8,
        }
        pub enum cudaMemPoolAttr: u32 {
            cudaMemPoolReuseFollowEventDependencies = 0x1,
            cudaMemPoolReuseAllowOpportunistic = 0x2,
            cudaMemPoolReuseAllowInternalDependencies = 0x3,
            cudaMemPoolAttrReleaseThreshold = 0x4,
            cudaMemPoolAttrReservedMemCurrent = 0x5,
            cudaMemPoolAttrReservedMemHigh = 0x6,
            cudaMemPoolAttrUsedMemCurrent = 0x7,
            cudaMemPoolAttrUsedMemHigh = 0x8,
        }
        pub enum cudaMemLocationType: u32 {
            cudaMemLocationTypeInvalid = 0,
            cudaMemLocationTypeNone = 0,
            cudaMemLocationTypeDevice = 1,
            cudaMemLocationTypeHost = 2,
            cudaMemLocationTypeHostNuma = 3,
            cudaMemLocationTypeHostNumaCurrent = 4,
        }
        pub enum cudaMemAccessFlags: u32 {
            cudaMemAccessFlagsProtNone = 0,
            cudaMemAccessFlagsProtRead = 1,
            cudaMemAccessFlagsProtReadWrite = 3,
        }
        pub enum cudaMemAllocationType: u32 {
            cudaMemAllocationTypeInvalid = 0x0,
            cudaMemAllocationTypePinned = 0x1,
            cudaMemAllocationTypeManaged = 0x2,
            cudaMemAllocationTypeMax = 0x7FFFFFFF,
        }
        pub enum cudaMemAllocationHandleType: u32 {
            cudaMemHandleTypeNone = 0x0,
            cudaMemHandleTypePosixFileDescriptor = 0x1,
            cudaMemHandleTypeWin32 = 0x2,
            cudaMemHandleTypeWin32Kmt = 0x4,
            cudaMemHandleTypeFabric = 0x8,
        }
        pub enum cudaMemcpyFlags: u32 {
            cudaMemcpyFlagDefault = 0x0,
            cudaMemcpyFlagPreferOverlapWithCompute = 0x1,
        }
        pub enum cudaMemcpySrcAccessOrder: u32 {
            cudaMemcpySrcAccessOrderInvalid = 0x0,
            cudaMemcpySrcAccessOrderStream = 0x1,
            cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
            cudaMemcpySrcAccessOrderAny = 0x3,
            cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF,
        }
        pub enum cudaMemcpy3DOperandType: u32 {
            cudaMemcpyOperandTypePointer = 0x1,
            cudaMemcpyOperandTypeArray = 0x2,
            cudaMemcpyOperandTypeMax = 0x7FFFFFFF,
        }
    }
    consts {
        /// `cudaHostAlloc` flags.
        pub const cudaHostAllocDefault: u32 = 0x00;
        pub const cudaHostAllocPortable: u32 = 0x01;
        pub const cudaHostAllocMapped: u32 = 0x02;
        pub const cudaHostAllocWriteCombined: u32 = 0x04;
        /// `cudaHostRegister` flags.
        pub const cudaHostRegisterDefault: u32 = 0x00;
        pub const cudaHostRegisterPortable: u32 = 0x01;
        pub const cudaHostRegisterMapped: u32 = 0x02;
        pub const cudaHostRegisterIoMemory: u32 = 0x04;
        pub const cudaHostRegisterReadOnly: u32 = 0x08;
        /// `cudaMallocManaged` / `cudaStreamAttachMemAsync` flags.
        pub const cudaMemAttachGlobal: u32 = 0x01;
        pub const cudaMemAttachHost: u32 = 0x02;
        pub const cudaMemAttachSingle: u32 = 0x04;
        /// `cudaMallocArray` / `cudaMalloc3DArray` flags.
        pub const cudaArrayDefault: u32 = 0x00;
        pub const cudaArrayLayered: u32 = 0x01;
        pub const cudaArraySurfaceLoadStore: u32 = 0x02;
        pub const cudaArrayCubemap: u32 = 0x04;
        pub const cudaArrayTextureGather: u32 = 0x08;
        pub const cudaArrayColorAttachment: u32 = 0x20;
        pub const cudaArraySparse: u32 = 0x40;
        pub const cudaArrayDeferredMapping: u32 = 0x80;
        pub const cudaArraySparsePropertiesSingleMipTail: u32 = 0x1;
        /// `cudaIpcOpenMemHandle` flags.
        pub const cudaIpcMemLazyEnablePeerAccess: u32 = 0x01;
        /// Size in bytes of the IPC handles.
        pub const CUDA_IPC_HANDLE_SIZE: usize = 64;
        /// `cudaMemPoolProps::usage` bit.
        pub const cudaMemPoolCreateUsageHwDecompress: u16 = 0x2;
    }
}
