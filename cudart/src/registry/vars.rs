//! Variables: the `__device__`, `__constant__` and `__managed__`
//! variables registered with a fatbin (by host address, in the
//! registry's `vars`), their registration and `__cudaInitModule`, and the
//! symbol look-ups that resolve them in the current context.

use super::{fatbin_of, name_of, Fatbin, REGISTRY};
use crate::abi::cudaError_t;
use crate::boundary::Out;
use crate::driver::{self, CUdeviceptr};
use crate::trace;
use std::ffi::{c_char, c_void};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One registered `__device__`, `__constant__` or `__managed__` variable.
pub struct Var {
    pub(super) fatbin: Arc<Fatbin>,
    name: usize,
    pub size: usize,
    /// `__managed__`: its address comes from `cuLibraryGetManaged`.
    managed: bool,
}

/// `__cudaRegisterVar` and `__cudaRegisterManagedVar` (`managed_slot` is
/// the host's `void**` the runtime fills with the managed address).
pub fn register_var(
    handle: *mut *mut c_void,
    host: *const c_void,
    name: *const c_char,
    size: usize,
    managed_slot: Option<*mut *mut c_void>,
) -> Result<(), cudaError_t> {
    if host.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut reg = REGISTRY.write();
    let rec = reg
        .fatbins
        .get_mut(&(handle as usize))
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    let fatbin = rec.fatbin.clone();
    rec.vars.push(host as usize);
    fatbin.vars.fetch_add(1, Ordering::Relaxed);
    if let Some(slot) = managed_slot {
        fatbin.managed.lock().push((slot as usize, name as usize));
    }
    reg.vars.insert(
        host as usize,
        Arc::new(Var {
            fatbin,
            name: name as usize,
            size,
            managed: managed_slot.is_some(),
        }),
    );
    Ok(())
}

/// `__cudaInitModule`: loads the fatbin now and fills its managed
/// variables' host pointers. Returns 1 when the module is ready.
pub fn init_module(handle: *mut *mut c_void) -> Result<c_char, cudaError_t> {
    let fb = fatbin_of(&REGISTRY.read(), handle)?;
    let lib = fb.library()?;
    let drv = driver::get()?;
    let managed = fb.managed.lock().clone();
    for (slot, name) in managed {
        let mut dptr: CUdeviceptr = 0;
        let mut size = 0usize;
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name_of(name).as_ptr())
            .ok()?;
        Out(slot as *mut *mut c_void).write(dptr as *mut c_void)?;
        // Host code names a managed variable by its managed address (the
        // slot is dereferenced), so the symbol calls look it up by that too.
        let mut reg = REGISTRY.write();
        if let Some(var) = reg.vars.get(&slot).cloned() {
            reg.vars.insert(dptr as usize, var);
            if let Some(rec) = reg.fatbins.get_mut(&(handle as usize)) {
                rec.vars.push(dptr as usize);
            }
        }
        drop(reg);
        trace::event!(
            "module",
            format!("managed variable {}", name_of(name).to_string_lossy()),
            "managed variable {} of fatbin #{} at {dptr:#x} (eager: __cudaInitModule)",
            name_of(name).to_string_lossy(),
            fb.id
        );
    }
    Ok(1)
}

/// A registered variable's device address and size in the current context.
pub fn symbol(host: *const c_void) -> Result<(CUdeviceptr, usize), cudaError_t> {
    let var = REGISTRY.read().vars.get(&(host as usize)).cloned();
    let Some(var) = var else {
        if crate::diagnose::enabled() {
            crate::diagnose::unknown_symbol(host, nearest_var(host as usize));
        }
        return Err(cudaError_t::cudaErrorInvalidSymbol);
    };
    let lib = var.fatbin.library()?;
    let mut dptr: CUdeviceptr = 0;
    let mut size = 0usize;
    let drv = driver::get()?;
    let name = name_of(var.name).as_ptr();
    if var.managed {
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name)
    } else {
        drv.cuLibraryGetGlobal(&mut dptr, &mut size, lib, name)
    }
    .ok()
    .map_err(|e| {
        if e == cudaError_t::cudaErrorSymbolNotFound {
            cudaError_t::cudaErrorInvalidSymbol
        } else {
            e
        }
    })?;
    Ok((dptr, size))
}

/// For the diagnostics: the registered variable nearest to `addr` (name,
/// host address, size).
fn nearest_var(addr: usize) -> Option<(String, usize, usize)> {
    let reg = REGISTRY.read();
    reg.vars
        .iter()
        .filter(|(&at, _)| at != 0)
        .min_by_key(|(&at, _)| at.abs_diff(addr))
        .map(|(&at, v)| (name_of(v.name).to_string_lossy().into_owned(), at, v.size))
}
