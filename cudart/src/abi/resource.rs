//! CUDA 13.5: device resources (SM partitions, workqueues) and execution
//! contexts (a device's primary context, or a green context made from a
//! resource descriptor). The types are the driver's (`CUdevResource`,
//! `CUdevResourceDesc`, `CUgreenCtx`) under runtime names, with the same
//! sizes, members and numbers, so they go to the driver unconverted.
use super::*;

/// An execution context: the driver's `CUcontext` (a device's primary
/// context) or `CUgreenCtx` (a green context); opaque to the program.
pub type cudaExecutionContext_t = *mut c_void;
/// A resource descriptor made by `cudaDevResourceGenerateDesc`: the
/// driver's `CUdevResourceDesc`.
pub type cudaDevResourceDesc_t = *mut c_void;

abi! {
    types {
        /// An SM resource: how many SMs, how they may be partitioned.
        pub struct cudaDevSmResource {
            pub smCount: u32,
            pub minSmPartitionSize: u32,
            pub smCoscheduledAlignment: u32,
            pub flags: u32,
            pub localityDomainId: u32,
        }
        /// Workqueue configuration of a device.
        pub struct cudaDevWorkqueueConfigResource {
            pub device: i32,
            pub wqConcurrencyLimit: u32,
            pub sharingScope: cudaDevWorkqueueConfigScope,
        }
        /// An existing workqueue (opaque, 40 bytes).
        pub struct cudaDevWorkqueueResource {
            pub reserved: [u8; 40],
        }
        /// One group of `cudaDevSmResourceSplit`.
        pub struct cudaDevSmResourceGroupParams {
            pub smCount: u32,
            pub coscheduledSmCount: u32,
            pub preferredCoscheduledSmCount: u32,
            pub flags: u32,
            pub localityDomainId: u32,
            pub reserved: [u32; 11],
        }
        /// The typed part of a resource (anonymous in C; checked through
        /// `cudaDevResource::_oversize`, the member that spans it).
        pub union cudaDevResource_u as "" {
            pub oversize: [u8; 40],
            pub sm: cudaDevSmResource,
            pub wqConfig: cudaDevWorkqueueConfigResource,
            pub wq: cudaDevWorkqueueResource,
        }
        /// A device resource: its type, then the member of that type.
        pub struct cudaDevResource {
            pub type_: cudaDevResourceType as "type",
            pub internal_padding: [u8; 92] as "_internal_padding",
            pub u: cudaDevResource_u as "_oversize",
            pub nextResource: *mut cudaDevResource,
        }
    }
    enums {
        pub enum cudaDevResourceType: u32 {
            cudaDevResourceTypeInvalid = 0,
            cudaDevResourceTypeSm = 1,
            cudaDevResourceTypeWorkqueueConfig = 1000,
            cudaDevResourceTypeWorkqueue = 10000,
        }
        pub enum cudaDevSmResourceGroup_flags: u32 {
            cudaDevSmResourceGroupDefault = 0,
            cudaDevSmResourceGroupBackfill = 0x1,
            cudaDevSmResourceGroupLocalityDomainId = 0x2,
            cudaDevSmResourceGroupLocalityDomainSupplementalSms = 0x4,
        }
        pub enum cudaDevSmResourceSplitByCount_flags: u32 {
            cudaDevSmResourceSplitIgnoreSmCoscheduling = 0x1,
            cudaDevSmResourceSplitMaxPotentialClusterSize = 0x2,
        }
        pub enum cudaDevWorkqueueConfigScope: u32 {
            cudaDevWorkqueueConfigScopeDeviceCtx = 0,
            cudaDevWorkqueueConfigScopeGreenCtxBalanced = 1,
        }
    }
    consts {
        /// Any locality domain (for `cudaDevSmResourceGroupLocalityDomainId`).
        pub const cudaDevSmResourceGroupLocalityDomainIdAny: u32 = !0u32;
    }
}
