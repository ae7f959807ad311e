//! `cudaError_t`: the runtime's error codes, their names and descriptions.
//!
//! Names are NVIDIA's identifiers (what `cudaGetErrorName` returns); the
//! descriptions (what `cudaGetErrorString` returns) are our own words. For a
//! value that is not an error code both return "unrecognized error code",
//! as NVIDIA's runtime does.
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

            /// A short explanation of the code (`cudaGetErrorString`).
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
    cudaSuccess = 0 => "the call completed without error",
    cudaErrorInvalidValue = 1 => "an argument is out of range or otherwise not acceptable",
    cudaErrorMemoryAllocation = 2 => "the allocation could not be satisfied: out of memory",
    cudaErrorInitializationError = 3 => "the CUDA driver or runtime could not be set up",
    cudaErrorCudartUnloading = 4 => "the runtime is shutting down, the call came too late",
    cudaErrorProfilerDisabled = 5 => "profiling is turned off for this process",
    cudaErrorProfilerNotInitialized = 6 => "profiler not set up (deprecated code)",
    cudaErrorProfilerAlreadyStarted = 7 => "profiling was already running (deprecated code)",
    cudaErrorProfilerAlreadyStopped = 8 => "profiling was already stopped (deprecated code)",
    cudaErrorInvalidConfiguration = 9 => "the launch configuration (grid, block or shared memory) cannot be used on this device",
    cudaErrorInvalidPitchValue = 12 => "a pitch argument is outside what the device allows",
    cudaErrorInvalidSymbol = 13 => "the given symbol is not a known device variable or function",
    cudaErrorInvalidHostPointer = 16 => "the host pointer is not valid here (deprecated code)",
    cudaErrorInvalidDevicePointer = 17 => "the device pointer is not valid here (deprecated code)",
    cudaErrorInvalidTexture = 18 => "the texture argument is not valid",
    cudaErrorInvalidTextureBinding = 19 => "the texture is not bound to valid memory",
    cudaErrorInvalidChannelDescriptor = 20 => "the channel format description is not valid",
    cudaErrorInvalidMemcpyDirection = 21 => "the copy direction (cudaMemcpyKind) is not valid",
    cudaErrorAddressOfConstant = 22 => "constant memory has no address to take (deprecated code)",
    cudaErrorTextureFetchFailed = 23 => "a texture fetch could not be done (deprecated code)",
    cudaErrorTextureNotBound = 24 => "the texture is not bound (deprecated code)",
    cudaErrorSynchronizationError = 25 => "synchronisation did not succeed (deprecated code)",
    cudaErrorInvalidFilterSetting = 26 => "linear filtering is not possible for this texture format",
    cudaErrorInvalidNormSetting = 27 => "normalized reads are not possible for this texture format",
    cudaErrorMixedDeviceExecution = 28 => "device and emulated code were mixed (deprecated code)",
    cudaErrorNotYetImplemented = 31 => "this call is not implemented (deprecated code)",
    cudaErrorMemoryValueTooLarge = 32 => "an emulated device pointer exceeded its range (deprecated code)",
    cudaErrorStubLibrary = 34 => "the loaded CUDA driver is a stub library, not a real driver",
    cudaErrorInsufficientDriver = 35 => "the installed CUDA driver is older than this runtime needs",
    cudaErrorCallRequiresNewerDriver = 36 => "this call needs a newer CUDA driver than the installed one",
    cudaErrorInvalidSurface = 37 => "the surface argument is not valid",
    cudaErrorDuplicateVariableName = 43 => "two device variables share one name",
    cudaErrorDuplicateTextureName = 44 => "two textures share one name",
    cudaErrorDuplicateSurfaceName = 45 => "two surfaces share one name",
    cudaErrorDevicesUnavailable = 46 => "every CUDA device is busy or not available to this process",
    cudaErrorIncompatibleDriverContext = 49 => "the current driver context does not work with this runtime",
    cudaErrorMissingConfiguration = 52 => "a kernel was launched without a launch configuration",
    cudaErrorPriorLaunchFailure = 53 => "an earlier launch failed (deprecated code)",
    cudaErrorLaunchMaxDepthExceeded = 65 => "device-side launches are nested deeper than allowed",
    cudaErrorLaunchFileScopedTex = 66 => "a device-side launch used a file-scoped texture",
    cudaErrorLaunchFileScopedSurf = 67 => "a device-side launch used a file-scoped surface",
    cudaErrorSyncDepthExceeded = 68 => "device-side synchronisation is nested deeper than allowed",
    cudaErrorLaunchPendingCountExceeded = 69 => "too many device-side launches are waiting to run",
    cudaErrorInvalidDeviceFunction = 98 => "the function is not a kernel that can run on this device",
    cudaErrorNoDevice = 100 => "no device with CUDA support was found",
    cudaErrorInvalidDevice = 101 => "the device number does not name a usable CUDA device",
    cudaErrorDeviceNotLicensed = 102 => "the device has no valid license for this use",
    cudaErrorSoftwareValidityNotEstablished = 103 => "the software integrity check could not be completed",
    cudaErrorStartupFailure = 127 => "the runtime failed while starting up",
    cudaErrorInvalidKernelImage = 200 => "the device code image is not valid",
    cudaErrorDeviceUninitialized = 201 => "no valid context is current for this call",
    cudaErrorMapBufferObjectFailed = 205 => "the buffer object could not be mapped",
    cudaErrorUnmapBufferObjectFailed = 206 => "the buffer object could not be unmapped",
    cudaErrorArrayIsMapped = 207 => "the array is mapped and cannot be destroyed",
    cudaErrorAlreadyMapped = 208 => "the resource is mapped already",
    cudaErrorNoKernelImageForDevice = 209 => "the program holds no code this device can run",
    cudaErrorAlreadyAcquired = 210 => "the resource was acquired already",
    cudaErrorNotMapped = 211 => "the resource is not mapped",
    cudaErrorNotMappedAsArray = 212 => "the mapped resource cannot be accessed as an array",
    cudaErrorNotMappedAsPointer = 213 => "the mapped resource cannot be accessed through a pointer",
    cudaErrorECCUncorrectable = 214 => "the device memory reported an ECC error that could not be corrected",
    cudaErrorUnsupportedLimit = 215 => "the device does not support this limit",
    cudaErrorDeviceAlreadyInUse = 216 => "another thread is using the device's context already",
    cudaErrorPeerAccessUnsupported = 217 => "peer access between these devices is not supported",
    cudaErrorInvalidPtx = 218 => "the PTX code could not be compiled",
    cudaErrorInvalidGraphicsContext = 219 => "the graphics (OpenGL/DirectX) context is not valid",
    cudaErrorNvlinkUncorrectable = 220 => "an NVLink error that could not be corrected was seen",
    cudaErrorJitCompilerNotFound = 221 => "the PTX JIT compiler library was not found",
    cudaErrorUnsupportedPtxVersion = 222 => "the PTX was produced by a toolchain newer than the driver supports",
    cudaErrorJitCompilationDisabled = 223 => "JIT compilation of PTX is turned off",
    cudaErrorUnsupportedExecAffinity = 224 => "the device does not support this execution affinity",
    cudaErrorUnsupportedDevSideSync = 225 => "the kernel calls device-side synchronisation, which this device does not support",
    cudaErrorContained = 226 => "an error was contained: a bad access to peer memory over NVLink or a hardware fault",
    cudaErrorInvalidSource = 300 => "the device source is not valid",
    cudaErrorFileNotFound = 301 => "a file named in the call does not exist",
    cudaErrorSharedObjectSymbolNotFound = 302 => "a shared-object symbol could not be resolved",
    cudaErrorSharedObjectInitFailed = 303 => "a shared object failed to initialise",
    cudaErrorOperatingSystem = 304 => "an operating-system call failed",
    cudaErrorInvalidResourceHandle = 400 => "the handle (stream, event, graph, ...) is not valid",
    cudaErrorIllegalState = 401 => "the resource is not in a state that allows this call",
    cudaErrorLossyQuery = 402 => "answering the query would lose information",
    cudaErrorSymbolNotFound = 500 => "no symbol of that name was found",
    cudaErrorNotReady = 600 => "the queued work has not finished yet",
    cudaErrorIllegalAddress = 700 => "the kernel accessed memory at an address it may not use",
    cudaErrorLaunchOutOfResources = 701 => "the launch needs more registers or other resources than the device has",
    cudaErrorLaunchTimeout = 702 => "the kernel ran too long and was stopped",
    cudaErrorLaunchIncompatibleTexturing = 703 => "the launch used a texturing mode the device does not support",
    cudaErrorPeerAccessAlreadyEnabled = 704 => "peer access to that context is enabled already",
    cudaErrorPeerAccessNotEnabled = 705 => "peer access to that context was never enabled",
    cudaErrorSetOnActiveProcess = 708 => "the setting can no longer change: the device is already active in this process",
    cudaErrorContextIsDestroyed = 709 => "the context in use has been destroyed",
    cudaErrorAssert = 710 => "a device-side assertion failed",
    cudaErrorTooManyPeers = 711 => "the hardware has no room for more peer mappings",
    cudaErrorHostMemoryAlreadyRegistered = 712 => "that host memory range is registered already",
    cudaErrorHostMemoryNotRegistered = 713 => "that host memory range is not registered",
    cudaErrorHardwareStackError = 714 => "the kernel hit a hardware stack error",
    cudaErrorIllegalInstruction = 715 => "the kernel executed an instruction that is not allowed",
    cudaErrorMisalignedAddress = 716 => "the kernel used a badly aligned memory address",
    cudaErrorInvalidAddressSpace = 717 => "the kernel used an address in the wrong address space",
    cudaErrorInvalidPc = 718 => "the kernel's program counter became invalid",
    cudaErrorLaunchFailure = 719 => "the kernel failed while running",
    cudaErrorCooperativeLaunchTooLarge = 720 => "the cooperative launch needs more blocks than can be resident at once",
    cudaErrorTensorMemoryLeak = 721 => "the kernel exited without releasing all of its tensor memory",
    cudaErrorNotPermitted = 800 => "the operation is not allowed",
    cudaErrorNotSupported = 801 => "the operation is not supported on this system or device",
    cudaErrorSystemNotReady = 802 => "the system is not ready for CUDA work yet",
    cudaErrorSystemDriverMismatch = 803 => "the display driver and the CUDA driver versions do not match",
    cudaErrorCompatNotSupportedOnDevice = 804 => "forward-compatibility mode is not supported on this device",
    cudaErrorMpsConnectionFailed = 805 => "could not connect to the MPS server",
    cudaErrorMpsRpcFailure = 806 => "a remote call to the MPS server failed",
    cudaErrorMpsServerNotReady = 807 => "the MPS server is not ready yet",
    cudaErrorMpsMaxClientsReached = 808 => "the MPS server has no room for more clients",
    cudaErrorMpsMaxConnectionsReached = 809 => "the MPS server has no room for more connections",
    cudaErrorMpsClientTerminated = 810 => "the MPS client was terminated by the server",
    cudaErrorCdpNotSupported = 811 => "the module uses CUDA dynamic parallelism, which is not supported here",
    cudaErrorCdpVersionMismatch = 812 => "the modules use different versions of CUDA dynamic parallelism",
    cudaErrorStreamCaptureUnsupported = 900 => "this operation cannot be done while a stream is capturing",
    cudaErrorStreamCaptureInvalidated = 901 => "the stream capture was invalidated by an earlier error",
    cudaErrorStreamCaptureMerge = 902 => "the operation would merge two separate captures",
    cudaErrorStreamCaptureUnmatched = 903 => "the capture was not started in this stream",
    cudaErrorStreamCaptureUnjoined = 904 => "a forked capture stream was not joined back into the origin stream",
    cudaErrorStreamCaptureIsolation = 905 => "the dependency would cross the capture boundary",
    cudaErrorStreamCaptureImplicit = 906 => "the operation would implicitly depend on the legacy stream during capture",
    cudaErrorCapturedEvent = 907 => "this call is not allowed on an event recorded during a capture",
    cudaErrorStreamCaptureWrongThread = 908 => "the capture (relaxed mode not used) was ended from another thread",
    cudaErrorTimeout = 909 => "the wait timed out",
    cudaErrorGraphExecUpdateFailure = 910 => "the executable graph cannot be updated this way",
    cudaErrorExternalDevice = 911 => "an external device reported an asynchronous error",
    cudaErrorInvalidClusterSize = 912 => "the kernel's cluster size is not valid",
    cudaErrorFunctionNotLoaded = 913 => "the function's module has not been loaded",
    cudaErrorInvalidResourceType = 914 => "a resource of the wrong type was given",
    cudaErrorInvalidResourceConfiguration = 915 => "the resource configuration is not valid",
    cudaErrorUnknown = 999 => "an unexpected internal error happened",
    cudaErrorApiFailureBase = 10000 => "base of unmapped driver errors (deprecated code)",
    ;since 13050:
    cudaErrorVersionTranslation = 10 => "the call cannot be translated between the program's CUDA version and the driver's",
    cudaErrorInsufficientLoaderVersion = 227 => "the loader of the CUDA libraries is older than this call needs",
    cudaErrorStreamDetached = 917 => "the stream is detached and cannot take this operation",
    cudaErrorGraphRecaptureFailure = 918 => "recapturing the stream into the existing graph failed",
    cudaErrorFabricNotReady = 919 => "the fabric is not ready yet",
}
