//! The small vector types the runtime API uses: `dim3`, `uint3`, the UUID.
use super::*;

abi! {
    types {
        /// Grid or block dimensions (three `unsigned int`).
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct dim3 { pub x: u32, pub y: u32, pub z: u32 }
        /// Three `unsigned int` (thread/block indices in registration calls).
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct uint3 { pub x: u32, pub y: u32, pub z: u32 }
        /// A device UUID, 16 raw bytes (`CUuuid_st`).
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct CUuuid_st { pub bytes: [c_char; 16] }
    }
    enums {}
    consts {}
}

/// `cudaUUID_t` is the driver's `CUuuid` struct.
pub type cudaUUID_t = CUuuid_st;
pub type CUuuid = CUuuid_st;

impl dim3 {
    /// `dim3(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }

    /// `dim3()` in C++: 1 in every dimension. (`Default` gives zeros, like
    /// every other ABI type.)
    pub const ONE: Self = Self::new(1, 1, 1);
}
