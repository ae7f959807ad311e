//! `cudaError_t`: the runtime's error codes, their names and descriptions.
//!
//! Names are NVIDIA's identifiers (what `cudaGetErrorName` returns) and
//! the descriptions NVIDIA's strings (what `cudaGetErrorString` returns),
//! measured from NVIDIA's 13.5 runtime (`scripts/error-table.sh 13.5`):
//! logs, scripts and test suites match on that text. For a value that is
//! not an error code both return "unrecognized error code", as NVIDIA's
//! runtime does.
use std::ffi::CStr;

#[repr(transparent)]
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct cudaError_t(pub i32);

impl crate::abi::AbiZero for cudaError_t {
    const ZERO: Self = Self(0);
}

/// What NVIDIA's `cudaGetErrorName` and `cudaGetErrorString` both return
/// for a value that is not an error code.
pub const UNRECOGNIZED_ERROR: &CStr = c"unrecognized error code";

const fn cstr(bytes: &'static [u8]) -> &'static CStr {
    match CStr::from_bytes_with_nul(bytes) {
        Ok(s) => s,
        Err(_) => panic!("error name or description with an inner NUL"),
    }
}

macro_rules! error_codes {
    (
        $( $name:ident = $val:literal => $desc:literal, )*
        ;since 13050:
        $( $name5:ident = $val5:literal => $desc5:literal, )*
    ) => {
        impl cudaError_t {
            $( pub const $name: Self = Self($val); )*
            $( pub const $name5: Self = Self($val5); )*

            /// Every error code of the CUDA 13.0 headers, ascending, then
            /// those CUDA 13.5 added.
            pub const ALL: &'static [cudaError_t] = &[ $( Self::$name, )* $( Self::$name5, )* ];

            /// NVIDIA's identifier for the code (`cudaGetErrorName`).
            pub fn name(self) -> &'static CStr {
                match self.0 {
                    $( $val => const { cstr(concat!(stringify!($name), "\0").as_bytes()) }, )*
                    $( $val5 => const { cstr(concat!(stringify!($name5), "\0").as_bytes()) }, )*
                    _ => UNRECOGNIZED_ERROR,
                }
            }

            /// NVIDIA's description of the code (`cudaGetErrorString`).
            pub fn description(self) -> &'static CStr {
                match self.0 {
                    $( $val => const { cstr(concat!($desc, "\0").as_bytes()) }, )*
                    $( $val5 => const { cstr(concat!($desc5, "\0").as_bytes()) }, )*
                    _ => UNRECOGNIZED_ERROR,
                }
            }
        }

        /// The enumerators CUDA 13.5 added (checked against the 13.5
        /// headers only; joined in `abi/mod.rs`).
        pub(super) static CONSTANTS_13_5: &[crate::abi::Constant] = &[ $(
            crate::abi::Constant {
                scope: "cudaError_t",
                name: stringify!($name5),
                value: $val5,
            },
        )* ];

        /// This file's types (see `abi/macros.rs`).
        pub(super) static LAYOUTS: &[crate::abi::TypeLayout] = &[crate::abi::TypeLayout {
            name: "cudaError_t",
            c_type: "cudaError_t",
            kind: crate::abi::TypeKind::Enum,
            size: ::core::mem::size_of::<cudaError_t>(),
            align: ::core::mem::align_of::<cudaError_t>(),
            fields: &[],
        }];

        /// This file's enumerators (see `abi/macros.rs`).
        pub(super) static CONSTANTS: &[crate::abi::Constant] = &[ $(
            crate::abi::Constant {
                scope: "cudaError_t",
                name: stringify!($name),
                value: $val,
            },
        )* ];
    };
}

impl cudaError_t {
    pub const fn is_success(self) -> bool {
        self.0 == 0
    }
}

error_codes! {
    cudaSuccess = 0 => "no error",
    cudaErrorInvalidValue = 1 => "invalid argument",
    cudaErrorMemoryAllocation = 2 => "out of memory",
    cudaErrorInitializationError = 3 => "initialization error",
    cudaErrorCudartUnloading = 4 => "driver shutting down",
    cudaErrorProfilerDisabled = 5 => "profiler disabled while using external profiling tool",
    cudaErrorProfilerNotInitialized = 6 => "profiler not initialized: call cudaProfilerInitialize()",
    cudaErrorProfilerAlreadyStarted = 7 => "profiler already started",
    cudaErrorProfilerAlreadyStopped = 8 => "profiler already stopped",
    cudaErrorInvalidConfiguration = 9 => "invalid configuration argument",
    cudaErrorInvalidPitchValue = 12 => "invalid pitch argument",
    cudaErrorInvalidSymbol = 13 => "invalid device symbol",
    cudaErrorInvalidHostPointer = 16 => "invalid host pointer",
    cudaErrorInvalidDevicePointer = 17 => "invalid device pointer",
    cudaErrorInvalidTexture = 18 => "invalid texture reference",
    cudaErrorInvalidTextureBinding = 19 => "texture is not bound to a pointer",
    cudaErrorInvalidChannelDescriptor = 20 => "invalid channel descriptor",
    cudaErrorInvalidMemcpyDirection = 21 => "invalid copy direction for memcpy",
    cudaErrorAddressOfConstant = 22 => "invalid address of constant",
    cudaErrorTextureFetchFailed = 23 => "fetch from texture failed",
    cudaErrorTextureNotBound = 24 => "cannot fetch from a texture that is not bound",
    cudaErrorSynchronizationError = 25 => "incorrect use of __syncthreads()",
    cudaErrorInvalidFilterSetting = 26 => "linear filtering not supported for non-float type",
    cudaErrorInvalidNormSetting = 27 => "read as normalized float not supported for data type",
    cudaErrorMixedDeviceExecution = 28 => "device emulation mode and device execution mode cannot be mixed",
    cudaErrorNotYetImplemented = 31 => "feature not yet implemented",
    cudaErrorMemoryValueTooLarge = 32 => "memory size or pointer value too large to fit in 32 bit",
    cudaErrorStubLibrary = 34 => "CUDA driver is a stub library",
    cudaErrorInsufficientDriver = 35 => "CUDA driver version is insufficient for CUDA runtime version",
    cudaErrorCallRequiresNewerDriver = 36 => "API call is not supported in the installed CUDA driver",
    cudaErrorInvalidSurface = 37 => "invalid surface reference",
    cudaErrorDuplicateVariableName = 43 => "duplicate global variable looked up by string name",
    cudaErrorDuplicateTextureName = 44 => "duplicate texture looked up by string name",
    cudaErrorDuplicateSurfaceName = 45 => "duplicate surface looked up by string name",
    cudaErrorDevicesUnavailable = 46 => "CUDA-capable device(s) is/are busy or unavailable",
    cudaErrorIncompatibleDriverContext = 49 => "incompatible driver context",
    cudaErrorMissingConfiguration = 52 => "__global__ function call is not configured",
    cudaErrorPriorLaunchFailure = 53 => "unspecified launch failure in prior launch",
    cudaErrorLaunchMaxDepthExceeded = 65 => "launch would exceed maximum depth of nested launches",
    cudaErrorLaunchFileScopedTex = 66 => "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)",
    cudaErrorLaunchFileScopedSurf = 67 => "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)",
    cudaErrorSyncDepthExceeded = 68 => "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth",
    cudaErrorLaunchPendingCountExceeded = 69 => "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount",
    cudaErrorInvalidDeviceFunction = 98 => "invalid device function",
    cudaErrorNoDevice = 100 => "no CUDA-capable device is detected",
    cudaErrorInvalidDevice = 101 => "invalid device ordinal",
    cudaErrorDeviceNotLicensed = 102 => "device doesn't have valid Grid license",
    cudaErrorSoftwareValidityNotEstablished = 103 => "integrity checks failed",
    cudaErrorStartupFailure = 127 => "startup failure in cuda runtime",
    cudaErrorInvalidKernelImage = 200 => "device kernel image is invalid",
    cudaErrorDeviceUninitialized = 201 => "invalid device context",
    cudaErrorMapBufferObjectFailed = 205 => "mapping of buffer object failed",
    cudaErrorUnmapBufferObjectFailed = 206 => "unmapping of buffer object failed",
    cudaErrorArrayIsMapped = 207 => "array is mapped",
    cudaErrorAlreadyMapped = 208 => "resource already mapped",
    cudaErrorNoKernelImageForDevice = 209 => "no kernel image is available for execution on the device",
    cudaErrorAlreadyAcquired = 210 => "resource already acquired",
    cudaErrorNotMapped = 211 => "resource not mapped",
    cudaErrorNotMappedAsArray = 212 => "resource not mapped as array",
    cudaErrorNotMappedAsPointer = 213 => "resource not mapped as pointer",
    cudaErrorECCUncorrectable = 214 => "uncorrectable ECC error encountered",
    cudaErrorUnsupportedLimit = 215 => "limit is not supported on this architecture",
    cudaErrorDeviceAlreadyInUse = 216 => "exclusive-thread device already in use by a different thread",
    cudaErrorPeerAccessUnsupported = 217 => "peer access is not supported between these two devices",
    cudaErrorInvalidPtx = 218 => "a PTX JIT compilation failed",
    cudaErrorInvalidGraphicsContext = 219 => "invalid OpenGL or DirectX context",
    cudaErrorNvlinkUncorrectable = 220 => "uncorrectable NVLink error detected during the execution",
    cudaErrorJitCompilerNotFound = 221 => "PTX JIT compiler library not found",
    cudaErrorUnsupportedPtxVersion = 222 => "the provided PTX was compiled with an unsupported toolchain.",
    cudaErrorJitCompilationDisabled = 223 => "PTX JIT compilation was disabled",
    cudaErrorUnsupportedExecAffinity = 224 => "the provided execution affinity is not supported",
    cudaErrorUnsupportedDevSideSync = 225 => "the provided PTX contains unsupported call to cudaDeviceSynchronize",
    cudaErrorContained = 226 => "Invalid access of peer GPU memory over nvlink or a hardware error",
    cudaErrorInvalidSource = 300 => "device kernel image is invalid",
    cudaErrorFileNotFound = 301 => "file not found",
    cudaErrorSharedObjectSymbolNotFound = 302 => "shared object symbol not found",
    cudaErrorSharedObjectInitFailed = 303 => "shared object initialization failed",
    cudaErrorOperatingSystem = 304 => "OS call failed or operation not supported on this OS",
    cudaErrorInvalidResourceHandle = 400 => "invalid resource handle",
    cudaErrorIllegalState = 401 => "the operation cannot be performed in the present state",
    cudaErrorLossyQuery = 402 => "attempted introspection would be semantically lossy",
    cudaErrorSymbolNotFound = 500 => "named symbol not found",
    cudaErrorNotReady = 600 => "device not ready",
    cudaErrorIllegalAddress = 700 => "an illegal memory access was encountered",
    cudaErrorLaunchOutOfResources = 701 => "too many resources requested for launch",
    cudaErrorLaunchTimeout = 702 => "the launch timed out and was terminated",
    cudaErrorLaunchIncompatibleTexturing = 703 => "launch uses incompatible texturing mode",
    cudaErrorPeerAccessAlreadyEnabled = 704 => "peer access is already enabled",
    cudaErrorPeerAccessNotEnabled = 705 => "peer access has not been enabled",
    cudaErrorSetOnActiveProcess = 708 => "cannot set while device is active in this process",
    cudaErrorContextIsDestroyed = 709 => "context is destroyed",
    cudaErrorAssert = 710 => "device-side assert triggered",
    cudaErrorTooManyPeers = 711 => "peer mapping resources exhausted",
    cudaErrorHostMemoryAlreadyRegistered = 712 => "part or all of the requested memory range is already mapped",
    cudaErrorHostMemoryNotRegistered = 713 => "pointer does not correspond to a registered memory region",
    cudaErrorHardwareStackError = 714 => "hardware stack error",
    cudaErrorIllegalInstruction = 715 => "an illegal instruction was encountered",
    cudaErrorMisalignedAddress = 716 => "misaligned address",
    cudaErrorInvalidAddressSpace = 717 => "operation not supported on global/shared address space",
    cudaErrorInvalidPc = 718 => "invalid program counter",
    cudaErrorLaunchFailure = 719 => "unspecified launch failure",
    cudaErrorCooperativeLaunchTooLarge = 720 => "too many blocks in cooperative launch",
    cudaErrorTensorMemoryLeak = 721 => "tensor memory not completely freed",
    cudaErrorNotPermitted = 800 => "operation not permitted",
    cudaErrorNotSupported = 801 => "operation not supported",
    cudaErrorSystemNotReady = 802 => "system not yet initialized",
    cudaErrorSystemDriverMismatch = 803 => "system has unsupported display driver / cuda driver combination",
    cudaErrorCompatNotSupportedOnDevice = 804 => "forward compatibility was attempted on non supported HW",
    cudaErrorMpsConnectionFailed = 805 => "MPS client failed to connect to the MPS control daemon or the MPS server",
    cudaErrorMpsRpcFailure = 806 => "the remote procedural call between the MPS server and the MPS client failed",
    cudaErrorMpsServerNotReady = 807 => "MPS server is not ready to accept new MPS client requests",
    cudaErrorMpsMaxClientsReached = 808 => "the hardware resources required to create MPS client have been exhausted",
    cudaErrorMpsMaxConnectionsReached = 809 => "the hardware resources required to support device connections have been exhausted",
    cudaErrorMpsClientTerminated = 810 => "the MPS client has been terminated by the server",
    cudaErrorCdpNotSupported = 811 => "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it",
    cudaErrorCdpVersionMismatch = 812 => "unsupported interaction between different versions of CUDA Dynamic Parallelism",
    cudaErrorStreamCaptureUnsupported = 900 => "operation not permitted when stream is capturing",
    cudaErrorStreamCaptureInvalidated = 901 => "operation failed due to a previous error during capture",
    cudaErrorStreamCaptureMerge = 902 => "operation would result in a merge of separate capture sequences",
    cudaErrorStreamCaptureUnmatched = 903 => "capture was not ended in the same stream as it began",
    cudaErrorStreamCaptureUnjoined = 904 => "capturing stream has unjoined work",
    cudaErrorStreamCaptureIsolation = 905 => "dependency created on uncaptured work in another stream",
    cudaErrorStreamCaptureImplicit = 906 => "operation would make the legacy stream depend on a capturing blocking stream",
    cudaErrorCapturedEvent = 907 => "operation not permitted on an event last recorded in a capturing stream",
    cudaErrorStreamCaptureWrongThread = 908 => "attempt to terminate a thread-local capture sequence from another thread",
    cudaErrorTimeout = 909 => "wait operation timed out",
    cudaErrorGraphExecUpdateFailure = 910 => "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update",
    cudaErrorExternalDevice = 911 => "an async error has occured in external entity outside of CUDA",
    cudaErrorInvalidClusterSize = 912 => "a kernel launch error has occurred due to cluster misconfiguration",
    cudaErrorFunctionNotLoaded = 913 => "the function handle is not loaded when calling an API that requires a loaded function",
    cudaErrorInvalidResourceType = 914 => "one or more resources passed in are not valid resource types for the operation",
    cudaErrorInvalidResourceConfiguration = 915 => "one or more resources are insufficient or non-applicable for the operation",
    cudaErrorUnknown = 999 => "unknown error",
    cudaErrorApiFailureBase = 10000 => "api failure base",
    ;since 13050:
    cudaErrorVersionTranslation = 10 => "Driver is newer than runtime and returned parameters the runtime cannot process",
    cudaErrorInsufficientLoaderVersion = 227 => "Loader version is insufficient for fatbin",
    cudaErrorStreamDetached = 917 => "API call not permitted since the green context associated with the stream has been destroyed",
    cudaErrorGraphRecaptureFailure = 918 => "recapturing to the source graph failed and had to be terminated",
    cudaErrorFabricNotReady = 919 => "GPU fabric is not ready within the probe wait budget; application may retry (see CUDA_FABRIC_INIT_TIMEOUT_MS)",
}
