//! Occupancy calculators and cooperative launches.
//!
//! Also the per-kernel queries that need the kernel's `CUfunction`
//! (`cudaFuncGetParamInfo`, `cudaFuncSetSharedMemConfig`). Every function
//! takes the kernel as `const void *func`: a registered host stub or a
//! kernel handle, turned into the driver's `CUkernel` by
//! [`registry::launch_handle`]; where the driver wants a `CUfunction`, it
//! is the kernel's function in the current context (`cuKernelGetFunction`).

use crate::abi::{cudaError_t, cudaLaunchConfig_t, cudaStream_t, dim3};
use crate::boundary::{In, Out};
use crate::driver::library::LibraryApi;
use crate::driver::{self, CUfunction, CUkernel, CUlaunchConfig};
use crate::launch::driver_stream;
use crate::registry;
use std::ffi::{c_int, c_uint, c_void};

fn api() -> Result<&'static LibraryApi, cudaError_t> {
    driver::family::<LibraryApi>(false)
}

/// The kernel's `CUfunction` in the current context.
fn function_of(func: *const c_void) -> Result<CUfunction, cudaError_t> {
    let k: CUkernel = registry::launch_handle(func)?;
    let mut f = CUfunction::null();
    driver::get()?.cuKernelGetFunction(&mut f, k).ok()?;
    Ok(f)
}

/// A shared-memory size the driver's `unsigned` can hold.
fn shared_bytes(bytes: usize) -> Result<c_uint, cudaError_t> {
    c_uint::try_from(bytes).map_err(|_| cudaError_t::cudaErrorInvalidValue)
}

/// The driver's launch configuration for a runtime one.
fn driver_config(c: &cudaLaunchConfig_t) -> Result<CUlaunchConfig, cudaError_t> {
    crate::launch::check_attributes(c)?;
    crate::launch::driver_config(c, false)
}

/// `cudaOccupancyAvailableDynamicSMemPerBlock`: the dynamic shared memory
/// a block may use when `blocks` blocks of `block_size` threads share an SM.
pub fn available_dynamic_smem(
    out: Out<usize>,
    func: *const c_void,
    blocks: c_int,
    block_size: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    let f = function_of(func)?;
    let mut bytes = 0usize;
    api()?
        .cuOccupancyAvailableDynamicSMemPerBlock(&mut bytes, f, blocks, block_size)
        .ok()?;
    out.write(bytes)
}

/// `cudaOccupancyMaxActiveClusters`: how many clusters of the configured
/// size (cluster attribute or the kernel's compile-time size) fit at once.
pub fn max_active_clusters(
    out: Out<c_int>,
    func: *const c_void,
    config: In<cudaLaunchConfig_t>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let cfg = driver_config(&config.read()?)?;
    let f = function_of(func)?;
    let mut n = 0;
    api()?.cuOccupancyMaxActiveClusters(&mut n, f, &cfg).ok()?;
    out.write(n)
}

/// `cudaOccupancyMaxPotentialClusterSize`: the largest cluster size the
/// kernel can launch with in this configuration.
pub fn max_potential_cluster_size(
    out: Out<c_int>,
    func: *const c_void,
    config: In<cudaLaunchConfig_t>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let cfg = driver_config(&config.read()?)?;
    let f = function_of(func)?;
    let mut n = 0;
    api()?
        .cuOccupancyMaxPotentialClusterSize(&mut n, f, &cfg)
        .ok()?;
    out.write(n)
}

/// `cudaLaunchCooperativeKernel` (and `_ptsz`): the driver's
/// `cuLaunchCooperativeKernel`, which takes a `CUkernel` where it takes a
/// `CUfunction` (resolved in the current context).
pub fn launch_cooperative(
    func: *const c_void,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let k = registry::launch_handle(func)?;
    let shared = shared_bytes(shared)?;
    driver::family::<LibraryApi>(per_thread)?
        .cuLaunchCooperativeKernel(
            CUfunction::of_kernel(k),
            grid.x,
            grid.y,
            grid.z,
            block.x,
            block.y,
            block.z,
            shared,
            driver_stream(stream, per_thread)?,
            args,
        )
        .ok()
}

/// `cudaFuncGetParamInfo`: offset and size of parameter `index` in the
/// kernel's device-side parameter layout (`cuKernelGetParamInfo`).
pub fn func_get_param_info(
    func: *const c_void,
    index: usize,
    offset: Out<usize>,
    size: *mut usize,
) -> Result<(), cudaError_t> {
    offset.check()?;
    let k = registry::launch_handle(func)?;
    api()?
        .cuKernelGetParamInfo(k, index, offset.as_ptr(), size)
        .ok()
}

/// `cudaFuncSetSharedMemConfig` (deprecated): `cudaSharedMemConfig` is the
/// driver's `CUsharedconfig`. Every device CUDA 13 supports has a fixed
/// bank size, where the call has no effect; a driver that no longer offers
/// `cuFuncSetSharedMemConfig` is therefore answered with that no-op.
pub fn func_set_shared_mem_config(func: *const c_void, config: c_int) -> Result<(), cudaError_t> {
    if !(0..=2).contains(&config) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let f = function_of(func)?;
    match api()?.cuFuncSetSharedMemConfig(f, config) {
        driver::CUresult::ERROR_NOT_FOUND => Ok(()),
        r => r.ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::cudaLaunchAttribute;

    #[test]
    fn launch_config_converts_field_by_field() {
        let mut attr = cudaLaunchAttribute::default();
        // A stream the runtime never saw must be readable memory.
        static STREAM: u64 = 0;
        let stream = std::ptr::addr_of!(STREAM) as cudaStream_t;
        let c = cudaLaunchConfig_t {
            gridDim: dim3 { x: 1, y: 2, z: 3 },
            blockDim: dim3 { x: 4, y: 5, z: 6 },
            dynamicSmemBytes: 7,
            stream,
            attrs: &mut attr,
            numAttrs: 1,
        };
        let d = driver_config(&c).unwrap();
        assert_eq!(
            [
                d.gridDimX,
                d.gridDimY,
                d.gridDimZ,
                d.blockDimX,
                d.blockDimY,
                d.blockDimZ
            ],
            [1, 2, 3, 4, 5, 6]
        );
        assert_eq!(d.sharedMemBytes, 7);
        assert_eq!(d.hStream.as_raw() as usize, stream as usize);
        assert_eq!(d.attrs as usize, &mut attr as *mut _ as usize);
        assert_eq!(d.numAttrs, 1);
    }

    #[test]
    fn launch_config_refuses_what_the_driver_cannot_take() {
        let c = cudaLaunchConfig_t {
            numAttrs: 1,
            ..Default::default()
        };
        assert_eq!(
            driver_config(&c).err(),
            Some(cudaError_t::cudaErrorInvalidValue)
        );
        let c = cudaLaunchConfig_t {
            dynamicSmemBytes: 1 << 40,
            ..Default::default()
        };
        assert_eq!(
            driver_config(&c).err(),
            Some(cudaError_t::cudaErrorInvalidValue)
        );
    }
}
