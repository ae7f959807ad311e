//! Streams and events: handles, special streams, creation and record/wait
//! flags, stream capture, host callbacks, user objects, async notifications.
use super::*;

/// A stream; the driver's `CUstream`.
pub type cudaStream_t = *mut c_void;
/// An event; the driver's `CUevent`.
pub type cudaEvent_t = *mut c_void;
/// A user object; the driver's `CUuserObject`.
pub type cudaUserObject_t = *mut c_void;

/// Host function run in stream order (`cudaLaunchHostFunc`, host nodes).
pub type cudaHostFn_t = Option<unsafe extern "C" fn(userData: *mut c_void)>;
/// Callback of `cudaStreamAddCallback`.
pub type cudaStreamCallback_t =
    Option<unsafe extern "C" fn(stream: cudaStream_t, status: cudaError_t, userData: *mut c_void)>;

/// Handle of a registered async-notification callback.
pub type cudaAsyncCallbackHandle_t = *mut c_void;
/// Callback of `cudaDeviceRegisterAsyncNotification`.
pub type cudaAsyncCallback = Option<
    unsafe extern "C" fn(
        info: *mut cudaAsyncNotificationInfo_t,
        userData: *mut c_void,
        callback: cudaAsyncCallbackHandle_t,
    ),
>;
/// Handle of a registered log callback.
pub type cudaLogsCallbackHandle = *mut c_void;
/// Position in the driver's log buffer.
pub type cudaLogIterator = u32;
/// Callback of `cudaLogsRegisterCallback`.
pub type cudaLogsCallback_t = Option<
    unsafe extern "C" fn(
        data: *mut c_void,
        logLevel: cudaLogLevel,
        message: *mut c_char,
        length: usize,
    ),
>;

abi! {
    types {
        pub struct cudaAsyncNotificationInfo_overBudget
            as "decltype(decltype(cudaAsyncNotificationInfo::info)::overBudget)"
        {
            pub bytesOverBudget: u64,
        }
        pub union cudaAsyncNotificationInfo_info as "decltype(cudaAsyncNotificationInfo::info)" {
            pub overBudget: cudaAsyncNotificationInfo_overBudget,
        }
        /// What an async-notification callback receives.
        pub struct cudaAsyncNotificationInfo {
            pub type_: cudaAsyncNotificationType as "type",
            pub info: cudaAsyncNotificationInfo_info,
        }
    }
    enums {
        pub enum cudaStreamCaptureStatus: u32 {
            cudaStreamCaptureStatusNone = 0,
            cudaStreamCaptureStatusActive = 1,
            cudaStreamCaptureStatusInvalidated = 2,
        }
        pub enum cudaStreamCaptureMode: u32 {
            cudaStreamCaptureModeGlobal = 0,
            cudaStreamCaptureModeThreadLocal = 1,
            cudaStreamCaptureModeRelaxed = 2,
        }
        pub enum cudaStreamUpdateCaptureDependenciesFlags: u32 {
            cudaStreamAddCaptureDependencies = 0x0,
            cudaStreamSetCaptureDependencies = 0x1,
        }
        pub enum cudaUserObjectFlags: u32 {
            cudaUserObjectNoDestructorSync = 0x1,
        }
        pub enum cudaUserObjectRetainFlags: u32 {
            cudaGraphUserObjectMove = 0x1,
        }
        pub enum cudaAsyncNotificationType: u32 {
            cudaAsyncNotificationTypeOverBudget = 0x1,
        }
        pub enum cudaLogLevel: u32 {
            cudaLogLevelError = 0,
            cudaLogLevelWarning = 1,
        }
    }
    consts {
        /// The legacy default stream, named explicitly.
        pub const cudaStreamLegacy: cudaStream_t = 0x1;
        /// The calling thread's default stream, named explicitly.
        pub const cudaStreamPerThread: cudaStream_t = 0x2;
        /// `cudaStreamCreateWithFlags` flags.
        pub const cudaStreamDefault: u32 = 0x00;
        pub const cudaStreamNonBlocking: u32 = 0x01;
        /// `cudaEventCreateWithFlags` flags.
        pub const cudaEventDefault: u32 = 0x00;
        pub const cudaEventBlockingSync: u32 = 0x01;
        pub const cudaEventDisableTiming: u32 = 0x02;
        pub const cudaEventInterprocess: u32 = 0x04;
        /// `cudaEventRecordWithFlags` flags.
        pub const cudaEventRecordDefault: u32 = 0x00;
        pub const cudaEventRecordExternal: u32 = 0x01;
        /// `cudaStreamWaitEvent` flags.
        pub const cudaEventWaitDefault: u32 = 0x00;
        pub const cudaEventWaitExternal: u32 = 0x01;
    }
}

/// `cudaAsyncNotificationInfo_t` is the struct itself.
pub type cudaAsyncNotificationInfo_t = cudaAsyncNotificationInfo;
