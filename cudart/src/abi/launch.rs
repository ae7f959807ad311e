//! Kernel launches: function attributes, launch configurations and their
//! attributes, cluster and sync-domain settings, occupancy flags.
use super::*;

/// A kernel of the current context; the driver's `CUfunction`.
pub type cudaFunction_t = *mut c_void;
/// A context-independent kernel; the driver's `CUkernel`.
pub type cudaKernel_t = *mut c_void;

abi! {
    types {
        pub struct cudaFuncAttributes {
            pub sharedSizeBytes: usize,
            pub constSizeBytes: usize,
            pub localSizeBytes: usize,
            pub maxThreadsPerBlock: i32,
            pub numRegs: i32,
            pub ptxVersion: i32,
            pub binaryVersion: i32,
            pub cacheModeCA: i32,
            pub maxDynamicSharedSizeBytes: i32,
            pub preferredShmemCarveout: i32,
            pub clusterDimMustBeSet: i32,
            pub requiredClusterWidth: i32,
            pub requiredClusterHeight: i32,
            pub requiredClusterDepth: i32,
            pub clusterSchedulingPolicyPreference: i32,
            pub nonPortableClusterSizeAllowed: i32,
            until 13000 pub reserved: [i32; 16],
        }
        pub struct cudaLaunchMemSyncDomainMap {
            pub default_: u8,
            pub remote: u8,
        }
        pub struct cudaLaunchAttributeValue_clusterDim
            as "decltype(cudaLaunchAttributeValue::clusterDim)"
        {
            pub x: u32,
            pub y: u32,
            pub z: u32,
        }
        pub struct cudaLaunchAttributeValue_programmaticEvent
            as "decltype(cudaLaunchAttributeValue::programmaticEvent)"
        {
            pub event: cudaEvent_t,
            pub flags: i32,
            pub triggerAtBlockStart: i32,
        }
        pub struct cudaLaunchAttributeValue_preferredClusterDim
            as "decltype(cudaLaunchAttributeValue::preferredClusterDim)"
        {
            pub x: u32,
            pub y: u32,
            pub z: u32,
        }
        pub struct cudaLaunchAttributeValue_launchCompletionEvent
            as "decltype(cudaLaunchAttributeValue::launchCompletionEvent)"
        {
            pub event: cudaEvent_t,
            pub flags: i32,
        }
        pub struct cudaLaunchAttributeValue_deviceUpdatableKernelNode
            as "decltype(cudaLaunchAttributeValue::deviceUpdatableKernelNode)"
        {
            pub deviceUpdatable: i32,
            pub devNode: cudaGraphDeviceNode_t,
        }
        /// The value of one launch (or stream / kernel-node) attribute.
        pub union cudaLaunchAttributeValue {
            pub pad: [c_char; 64],
            pub accessPolicyWindow: cudaAccessPolicyWindow,
            pub cooperative: i32,
            pub syncPolicy: cudaSynchronizationPolicy,
            pub clusterDim: cudaLaunchAttributeValue_clusterDim,
            pub clusterSchedulingPolicyPreference: cudaClusterSchedulingPolicy,
            pub programmaticStreamSerializationAllowed: i32,
            pub programmaticEvent: cudaLaunchAttributeValue_programmaticEvent,
            pub priority: i32,
            pub memSyncDomainMap: cudaLaunchMemSyncDomainMap,
            pub memSyncDomain: cudaLaunchMemSyncDomain,
            pub preferredClusterDim: cudaLaunchAttributeValue_preferredClusterDim,
            pub launchCompletionEvent: cudaLaunchAttributeValue_launchCompletionEvent,
            pub deviceUpdatableKernelNode: cudaLaunchAttributeValue_deviceUpdatableKernelNode,
            pub sharedMemCarveout: u32,
            pub nvlinkUtilCentricScheduling: u32,
            since 13050 pub portableClusterSizeMode: cudaLaunchAttributePortableClusterMode,
            since 13050 pub sharedMemoryMode: cudaSharedMemoryMode,
        }
        /// One launch attribute: its id, 4 bytes of padding, its value.
        pub struct cudaLaunchAttribute {
            pub id: cudaLaunchAttributeID,
            pub pad: [c_char; 4],
            pub val: cudaLaunchAttributeValue,
        }
        /// The configuration `cudaLaunchKernelExC` takes.
        pub struct cudaLaunchConfig_t {
            pub gridDim: dim3,
            pub blockDim: dim3,
            pub dynamicSmemBytes: usize,
            pub stream: cudaStream_t,
            pub attrs: *mut cudaLaunchAttribute,
            pub numAttrs: u32,
        }
    }
    enums {
        pub enum cudaFuncAttribute: u32 {
            cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
            cudaFuncAttributePreferredSharedMemoryCarveout = 9,
            cudaFuncAttributeClusterDimMustBeSet = 10,
            cudaFuncAttributeRequiredClusterWidth = 11,
            cudaFuncAttributeRequiredClusterHeight = 12,
            cudaFuncAttributeRequiredClusterDepth = 13,
            cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
            cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
            cudaFuncAttributeMax = 16,
        }
        pub enum cudaSynchronizationPolicy: u32 {
            cudaSyncPolicyAuto = 1,
            cudaSyncPolicySpin = 2,
            cudaSyncPolicyYield = 3,
            cudaSyncPolicyBlockingSync = 4,
        }
        pub enum cudaClusterSchedulingPolicy: u32 {
            cudaClusterSchedulingPolicyDefault = 0,
            cudaClusterSchedulingPolicySpread = 1,
            cudaClusterSchedulingPolicyLoadBalancing = 2,
        }
        pub enum cudaLaunchMemSyncDomain: u32 {
            cudaLaunchMemSyncDomainDefault = 0,
            cudaLaunchMemSyncDomainRemote = 1,
        }
        pub enum cudaLaunchAttributeID: u32 {
            cudaLaunchAttributeIgnore = 0,
            cudaLaunchAttributeAccessPolicyWindow = 1,
            cudaLaunchAttributeCooperative = 2,
            cudaLaunchAttributeSynchronizationPolicy = 3,
            cudaLaunchAttributeClusterDimension = 4,
            cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
            cudaLaunchAttributeProgrammaticStreamSerialization = 6,
            cudaLaunchAttributeProgrammaticEvent = 7,
            cudaLaunchAttributePriority = 8,
            cudaLaunchAttributeMemSyncDomainMap = 9,
            cudaLaunchAttributeMemSyncDomain = 10,
            cudaLaunchAttributePreferredClusterDimension = 11,
            cudaLaunchAttributeLaunchCompletionEvent = 12,
            cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
            cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
            cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
        }
        pub enum cudaCGScope: u32 {
            cudaCGScopeInvalid = 0,
            cudaCGScopeGrid = 1,
            cudaCGScopeReserved = 2,
        }
    }
    consts {
        /// `cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags` flags.
        pub const cudaOccupancyDefault: u32 = 0x00;
        pub const cudaOccupancyDisableCachingOverride: u32 = 0x01;
    }
    aliases {
        /// Stream and kernel-node attribute names of launch attributes.
        pub const cudaStreamAttributeAccessPolicyWindow: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeAccessPolicyWindow;
        pub const cudaStreamAttributeSynchronizationPolicy: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeSynchronizationPolicy;
        pub const cudaStreamAttributeMemSyncDomainMap: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomainMap;
        pub const cudaStreamAttributeMemSyncDomain: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomain;
        pub const cudaStreamAttributePriority: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributePriority;
        pub const cudaKernelNodeAttributeAccessPolicyWindow: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeAccessPolicyWindow;
        pub const cudaKernelNodeAttributeCooperative: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeCooperative;
        pub const cudaKernelNodeAttributePriority: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributePriority;
        pub const cudaKernelNodeAttributeClusterDimension: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeClusterDimension;
        pub const cudaKernelNodeAttributeClusterSchedulingPolicyPreference: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeClusterSchedulingPolicyPreference;
        pub const cudaKernelNodeAttributeMemSyncDomainMap: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomainMap;
        pub const cudaKernelNodeAttributeMemSyncDomain: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomain;
        pub const cudaKernelNodeAttributePreferredSharedMemoryCarveout: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributePreferredSharedMemoryCarveout;
        pub const cudaKernelNodeAttributeDeviceUpdatableKernelNode: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeDeviceUpdatableKernelNode;
        pub const cudaKernelNodeAttributeNvlinkUtilCentricScheduling: cudaLaunchAttributeID =
            cudaLaunchAttributeID::cudaLaunchAttributeNvlinkUtilCentricScheduling;
    }
}

/// Stream attributes are launch attributes.
pub type cudaStreamAttrID = cudaLaunchAttributeID;
pub type cudaStreamAttrValue = cudaLaunchAttributeValue;
/// Kernel-node attributes are launch attributes.
pub type cudaKernelNodeAttrID = cudaLaunchAttributeID;
pub type cudaKernelNodeAttrValue = cudaLaunchAttributeValue;
