//! Entry points for device resources and execution contexts (CUDA 13.5):
//! SM partitions, resource descriptors, green contexts, and the contexts'
//! streams, events and queries. Every one takes its device or context
//! explicitly, so none binds a context (`Driver`). `cudaDevSmResourceSplit`
//! and `cudaStreamGetDevResource` need a CUDA 13.1 driver and answer
//! `cudaErrorCallRequiresNewerDriver` on an older one.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{In, Needs, Out};
use crate::resource;
use std::ffi::{c_int, c_uint};

entry_points! {
    // Device resources.
    Driver fn cudaDeviceGetDevResource(device: c_int, resource: Out<cudaDevResource>, type_: cudaDevResourceType) -> cudaError_t
        => resource::device_get_resource(device, resource, type_);
    Driver fn cudaDevSmResourceSplitByCount(result: *mut cudaDevResource, nbGroups: Out<c_uint>, input: In<cudaDevResource>,
        remaining: *mut cudaDevResource, flags: c_uint, minCount: c_uint) -> cudaError_t
        => resource::sm_split_by_count(result, nbGroups, input, remaining, flags, minCount);
    Driver fn cudaDevSmResourceSplit(result: *mut cudaDevResource, nbGroups: c_uint, input: In<cudaDevResource>,
        remainder: *mut cudaDevResource, flags: c_uint, groupParams: *mut cudaDevSmResourceGroupParams) -> cudaError_t
        => resource::sm_split(result, nbGroups, input, remainder, flags, groupParams);
    Driver fn cudaDevResourceGenerateDesc(phDesc: Out<cudaDevResourceDesc_t>, resources: *mut cudaDevResource,
        nbResources: c_uint) -> cudaError_t
        => resource::generate_desc(phDesc, resources, nbResources);
    Context fn cudaStreamGetDevResource(hStream: cudaStream_t, resource: Out<cudaDevResource>, type_: cudaDevResourceType) -> cudaError_t
        => resource::stream_get_resource(hStream, resource, type_, LEGACY);
    Context fn cudaStreamGetDevResource_ptsz(hStream: cudaStream_t, resource: Out<cudaDevResource>, type_: cudaDevResourceType) -> cudaError_t
        => resource::stream_get_resource(hStream, resource, type_, PT);

    // Execution contexts: green contexts and the devices' primary contexts.
    Driver fn cudaGreenCtxCreate(phCtx: Out<cudaExecutionContext_t>, desc: cudaDevResourceDesc_t, device: c_int,
        flags: c_uint) -> cudaError_t
        => resource::green_create(phCtx, desc, device, flags);
    Driver fn cudaDeviceGetExecutionCtx(ctx: Out<cudaExecutionContext_t>, device: c_int) -> cudaError_t
        => resource::device_get_ctx(ctx, device);
    Driver fn cudaExecutionCtxDestroy(ctx: cudaExecutionContext_t) -> cudaError_t => resource::destroy(ctx);
    Driver fn cudaExecutionCtxGetDevResource(ctx: cudaExecutionContext_t, resource: Out<cudaDevResource>,
        type_: cudaDevResourceType) -> cudaError_t
        => resource::get_resource(ctx, resource, type_);
    Driver fn cudaExecutionCtxGetDevice(device: Out<c_int>, ctx: cudaExecutionContext_t) -> cudaError_t
        => resource::get_device(device, ctx);
    Driver fn cudaExecutionCtxGetId(ctx: cudaExecutionContext_t, ctxId: Out<u64>) -> cudaError_t
        => resource::get_id(ctx, ctxId);
    Driver fn cudaExecutionCtxStreamCreate(phStream: Out<cudaStream_t>, ctx: cudaExecutionContext_t, flags: c_uint,
        priority: c_int) -> cudaError_t
        => resource::stream_create(phStream, ctx, flags, priority);
    Driver fn cudaExecutionCtxSynchronize(ctx: cudaExecutionContext_t) -> cudaError_t => resource::synchronize(ctx);
    Driver fn cudaExecutionCtxRecordEvent(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> cudaError_t
        => resource::record_event(ctx, event);
    Driver fn cudaExecutionCtxWaitEvent(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> cudaError_t
        => resource::wait_event(ctx, event);
}
