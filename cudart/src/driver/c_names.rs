//! How each Rust type of the driver tables is spelled in C, for the ABI
//! test that holds every `driver_api!` signature against the driver's own
//! declarations (`abi-tests/tests/driver_abi.rs`).
//!
//! The spellings compose: `*mut T` is `ptr<T>`, `*const T` is `cptr<T>`,
//! a C function pointer `fnptr<R, A...>` (templates the test's C++ defines,
//! so no declarator has to be nested by hand). The runtime's types that the
//! tables hand to the driver as they are carry the driver's name of the
//! same layout (`cudaMemLocation` is `CUmemLocation`); the test checks
//! their sizes too ([`RUNTIME_AS_DRIVER`]).

use super::types::*;
use super::CUresult;
use crate::abi::*;
use std::ffi::c_void;

/// A type's spelling in C, in the terms of the driver's headers.
pub trait CName {
    fn c_name() -> String;
}

macro_rules! c_names {
    ($($t:ty => $c:literal),* $(,)?) => {
        $( impl CName for $t {
            fn c_name() -> String {
                $c.to_string()
            }
        } )*
    };
}

c_names! {
    c_void => "void",
    () => "void",
    i8 => "char",
    u8 => "unsigned char",
    i32 => "int",
    u32 => "unsigned int",
    i64 => "long long",
    u64 => "unsigned long long",
    usize => "size_t",
    f32 => "float",
    CUresult => "CUresult",
    cudaError_t => "int",
}

// The driver's structures of `driver/types.rs`, under their own names.
c_names! {
    CUDA_MEMCPY2D => "CUDA_MEMCPY2D",
    CUDA_MEMCPY3D => "CUDA_MEMCPY3D",
    CUDA_MEMCPY3D_PEER => "CUDA_MEMCPY3D_PEER",
    CUDA_ARRAY3D_DESCRIPTOR => "CUDA_ARRAY3D_DESCRIPTOR",
    CUDA_RESOURCE_DESC => "CUDA_RESOURCE_DESC",
    CUDA_TEXTURE_DESC => "CUDA_TEXTURE_DESC",
    CUDA_RESOURCE_VIEW_DESC => "CUDA_RESOURCE_VIEW_DESC",
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC => "CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC",
    CUeglFrame => "CUeglFrame",
    CUlaunchConfig => "CUlaunchConfig",
    CUDA_KERNEL_NODE_PARAMS => "CUDA_KERNEL_NODE_PARAMS",
    CUgraphNodeParams => "CUgraphNodeParams",
}

impl<T: CName> CName for *mut T {
    fn c_name() -> String {
        format!("ptr<{}>", T::c_name())
    }
}

impl<T: CName> CName for *const T {
    fn c_name() -> String {
        format!("cptr<{}>", T::c_name())
    }
}

macro_rules! fn_pointers {
    ($( ($($a:ident),*) )*) => { $(
        impl<R: CName $(, $a: CName)*> CName for Option<unsafe extern "C" fn($($a),*) -> R> {
            fn c_name() -> String {
                let mut s = format!("fnptr<{}", R::c_name());
                $( s.push_str(", "); s.push_str(&$a::c_name()); )*
                s.push('>');
                s
            }
        }
    )* };
}

fn_pointers! {
    ()
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
}

/// Declares the runtime types the tables pass to the driver as they are:
/// their driver names, and a record of each for the ABI test.
macro_rules! runtime_as_driver {
    (@since $v:literal) => { $v };
    (@since) => { 0 };
    ($($t:ident => $c:literal $(since $v:literal)?),* $(,)?) => {
        c_names! { $($t => $c),* }

        /// The runtime types the driver tables take as the driver's: (the
        /// runtime's name, the driver's, Rust size, Rust alignment, the
        /// first CUDA version whose headers declare it as such).
        pub static RUNTIME_AS_DRIVER: &[(&str, &str, usize, usize, u32)] = &[
            $( (
                stringify!($t),
                $c,
                std::mem::size_of::<$t>(),
                std::mem::align_of::<$t>(),
                runtime_as_driver!(@since $($v)?),
            ), )*
        ];
    };
}

runtime_as_driver! {
    CUuuid_st => "CUuuid",
    cudaMemLocation => "CUmemLocation",
    cudaMemAccessDesc => "CUmemAccessDesc",
    cudaMemPoolProps => "CUmemPoolProps",
    cudaMemPoolPtrExportData => "CUmemPoolPtrExportData",
    cudaIpcMemHandle_t => "CUipcMemHandle",
    cudaIpcEventHandle_t => "CUipcEventHandle",
    cudaArraySparseProperties => "CUDA_ARRAY_SPARSE_PROPERTIES",
    cudaArrayMemoryRequirements => "CUDA_ARRAY_MEMORY_REQUIREMENTS",
    cudaMemcpyAttributes => "CUmemcpyAttributes",
    cudaMemcpy3DBatchOp => "CUDA_MEMCPY3D_BATCH_OP",
    cudaMemsetParams => "CUDA_MEMSET_NODE_PARAMS",
    cudaHostNodeParams => "CUDA_HOST_NODE_PARAMS",
    cudaExternalSemaphoreSignalNodeParams => "CUDA_EXT_SEM_SIGNAL_NODE_PARAMS",
    cudaExternalSemaphoreWaitNodeParams => "CUDA_EXT_SEM_WAIT_NODE_PARAMS",
    cudaMemAllocNodeParams => "CUDA_MEM_ALLOC_NODE_PARAMS",
    cudaGraphInstantiateParams => "CUDA_GRAPH_INSTANTIATE_PARAMS",
    cudaGraphExecUpdateResultInfo => "CUgraphExecUpdateResultInfo",
    cudaGraphEdgeData => "CUgraphEdgeData",
    cudaGraphNodeParams => "CUgraphNodeParams",
    cudaLaunchAttribute => "CUlaunchAttribute",
    cudaLaunchAttributeID => "CUlaunchAttributeID",
    cudaLaunchAttributeValue => "CUlaunchAttributeValue",
    cudaStreamCaptureMode => "CUstreamCaptureMode",
    cudaStreamCaptureStatus => "CUstreamCaptureStatus",
    cudaExternalMemoryHandleDesc => "CUDA_EXTERNAL_MEMORY_HANDLE_DESC",
    cudaExternalMemoryBufferDesc => "CUDA_EXTERNAL_MEMORY_BUFFER_DESC",
    cudaExternalSemaphoreHandleDesc => "CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC",
    cudaExternalSemaphoreSignalParams => "CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS",
    cudaExternalSemaphoreWaitParams => "CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS",
    cudaAsyncNotificationInfo => "CUasyncNotificationInfo",
    cudaAtomicOperation => "CUatomicOperation",
    cudaJitOption => "CUjit_option",
    cudaLibraryOption => "CUlibraryOption",
    cudaDriverEntryPointQueryResult => "CUdriverProcAddressQueryResult",
    cudaLogLevel => "CUlogLevel",
    cudaDevResourceType => "CUdevResourceType",
    // The runtime's resource is 13.5's: 13.0's `CUdevResource` has the
    // same size (the stride of the arrays the driver takes) and, without
    // a 64-bit member yet, an alignment of 4.
    cudaDevResource => "CUdevResource" since 13050,
    cudaDevSmResourceGroupParams => "CU_DEV_SM_RESOURCE_GROUP_PARAMS" since 13050,
    cudaGraphRecaptureStatus => "CUgraphRecaptureStatus" since 13050,
}
