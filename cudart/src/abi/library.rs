//! Libraries and JIT options, and driver entry points.
use super::*;

/// A loaded library; the driver's `CUlibrary`.
pub type cudaLibrary_t = *mut c_void;

abi! {
    types {
        pub struct cudalibraryHostUniversalFunctionAndDataTable {
            pub functionTable: *mut c_void,
            pub functionWindowSize: usize,
            pub dataTable: *mut c_void,
            pub dataWindowSize: usize,
        }
    }
    enums {
        pub enum cudaJitOption: u32 {
            cudaJitMaxRegisters = 0,
            cudaJitThreadsPerBlock = 1,
            cudaJitWallTime = 2,
            cudaJitInfoLogBuffer = 3,
            cudaJitInfoLogBufferSizeBytes = 4,
            cudaJitErrorLogBuffer = 5,
            cudaJitErrorLogBufferSizeBytes = 6,
            cudaJitOptimizationLevel = 7,
            cudaJitFallbackStrategy = 10,
            cudaJitGenerateDebugInfo = 11,
            cudaJitLogVerbose = 12,
            cudaJitGenerateLineInfo = 13,
            cudaJitCacheMode = 14,
            cudaJitPositionIndependentCode = 30,
            cudaJitMinCtaPerSm = 31,
            cudaJitMaxThreadsPerBlock = 32,
            cudaJitOverrideDirectiveValues = 33,
        }
        pub enum cudaLibraryOption: u32 {
            cudaLibraryHostUniversalFunctionAndDataTable = 0,
            cudaLibraryBinaryIsPreserved = 1,
        }
        pub enum cudaJit_CacheMode: u32 {
            cudaJitCacheOptionNone = 0,
            cudaJitCacheOptionCG = 1,
            cudaJitCacheOptionCA = 2,
        }
        pub enum cudaJit_Fallback: u32 {
            cudaPreferPtx = 0,
            cudaPreferBinary = 1,
        }
        pub enum cudaGetDriverEntryPointFlags: u32 {
            cudaEnableDefault = 0x0,
            cudaEnableLegacyStream = 0x1,
            cudaEnablePerThreadDefaultStream = 0x2,
        }
        pub enum cudaDriverEntryPointQueryResult: u32 {
            cudaDriverEntryPointSuccess = 0,
            cudaDriverEntryPointSymbolNotFound = 1,
            cudaDriverEntryPointVersionNotSufficent = 2,
        }
    }
    consts {
        /// `cudaGetDriverEntryPoint` flags (the enumerators, as the
        /// `unsigned long long` the call takes).
        pub const cudaEnableDefault: u64 = 0x0;
        pub const cudaEnableLegacyStream: u64 = 0x1;
        pub const cudaEnablePerThreadDefaultStream: u64 = 0x2;
    }
}
