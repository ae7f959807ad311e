//! Copies: what the copies of the runtime are made of, shared by the rooms
//! that run or record them ([`crate::memory`], [`crate::array`],
//! [`crate::peer`], [`crate::graph`]).
//!
//! - copy kinds ([`check_kind`] and the named kinds; with unified
//!   addressing the driver tells host from device memory by address, so a
//!   kind is only validated, except in graph nodes, [`nodes`]);
//! - places and regions: the operands of 2D and 3D copies and the driver's
//!   descriptions made of them ([`place`]);
//! - element sizes of CUDA arrays, read from the driver ([`elements`]);
//! - the 3D copies of graph memcpy nodes, whose memory types follow the
//!   copy kind ([`nodes`]);
//! - the plan of the deprecated linear copies along an array's rows
//!   ([`linear`]);
//! - copies to and from `__device__`/`__constant__` variables: their kinds
//!   and ranges.
//!
//! This room calls no other family: memory, array, peer and graph use it.

pub mod elements;
pub mod linear;
pub mod nodes;
pub mod place;

pub use place::to_driver_3d;
pub(crate) use place::{params_2d, params_3d, regions_3d, Place, Region};

use crate::abi::{cudaError_t, cudaMemcpyKind};
use crate::driver::CUdeviceptr;
use std::ffi::{c_int, c_void};

/// `cudaMemcpyHostToHost`, as the exports take a kind (`int`).
pub const HOST_TO_HOST: c_int = cudaMemcpyKind::cudaMemcpyHostToHost.0 as c_int;
/// `cudaMemcpyHostToDevice`.
pub const HOST_TO_DEVICE: c_int = cudaMemcpyKind::cudaMemcpyHostToDevice.0 as c_int;
/// `cudaMemcpyDeviceToHost`.
pub const DEVICE_TO_HOST: c_int = cudaMemcpyKind::cudaMemcpyDeviceToHost.0 as c_int;
/// `cudaMemcpyDeviceToDevice`.
pub const DEVICE_TO_DEVICE: c_int = cudaMemcpyKind::cudaMemcpyDeviceToDevice.0 as c_int;
/// `cudaMemcpyDefault`: the driver works out each side by address.
pub const DEFAULT: c_int = cudaMemcpyKind::cudaMemcpyDefault.0 as c_int;

/// Checks a `cudaMemcpyKind`. With unified addressing the driver tells
/// host from device memory by address, so the kind is only validated.
pub(crate) fn check_kind(kind: c_int) -> Result<(), cudaError_t> {
    if (HOST_TO_HOST..=DEFAULT).contains(&kind) {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidMemcpyDirection)
    }
}

/// The kind of a copy to a variable: HostToDevice, DeviceToDevice or
/// Default.
pub(crate) fn check_to_symbol_kind(kind: c_int) -> Result<(), cudaError_t> {
    if matches!(kind, HOST_TO_DEVICE | DEVICE_TO_DEVICE | DEFAULT) {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidMemcpyDirection)
    }
}

/// The kind of a copy from a variable: DeviceToHost, DeviceToDevice or
/// Default.
pub(crate) fn check_from_symbol_kind(kind: c_int) -> Result<(), cudaError_t> {
    if matches!(kind, DEVICE_TO_HOST | DEVICE_TO_DEVICE | DEFAULT) {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidMemcpyDirection)
    }
}

/// The device address of `symbol` plus `offset`, checking `count` fits.
pub(crate) fn symbol_range(
    symbol: *const c_void,
    count: usize,
    offset: usize,
) -> Result<CUdeviceptr, cudaError_t> {
    let (base, size) = crate::registry::symbol(symbol)?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok(base + offset as CUdeviceptr),
        _ => Err(cudaError_t::cudaErrorInvalidValue),
    }
}
