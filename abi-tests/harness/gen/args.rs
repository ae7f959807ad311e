//! The argument rules: how each parameter of an ordinary call gets its
//! argument ([`arg_for`]).

/// How one parameter gets its argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A pointer to a 4 KiB buffer of 0xA5, checked for writes after the
    /// call; `int_value` prints the first 4 bytes as an int when written.
    Out { int_value: bool },
    /// A pointer to a zero-filled 4 KiB buffer; the C statements (on `p`, a
    /// pointer to the pointee type) fill fields.
    In(&'static str),
    /// NULL / 0.
    Null,
    /// A C expression of the parameter's type.
    Expr(String),
    /// A fixture of runner.h (`HF_<name>`): NULL without a driver, a real
    /// object with --gpu.
    Fix(&'static str),
    /// A zero-initialized value (structs passed by value).
    Zero,
}

pub(super) fn e(s: &str) -> Option<Arg> {
    Some(Arg::Expr(s.to_string()))
}

/// Exceptions to the general rules, by (function, parameter). The function
/// is the base name (no `_ptds`/`_ptsz`).
pub(super) fn override_for(func: &str, param: &str) -> Option<Arg> {
    use Arg::*;
    match (func, param) {
        // Non-const pointers that are inputs (or in/out).
        ("cudaSetValidDevices", "device_arr") => Some(In("")),
        ("cudaSetValidDevices", "len") => e("1"),
        ("cudaGraphicsMapResources" | "cudaGraphicsUnmapResources", "resources") => Some(In("")),
        ("cudaGraphicsMapResources" | "cudaGraphicsUnmapResources", "count") => e("1"),
        ("cudaMemcpyBatchAsync", "attrs") => {
            Some(In("p->srcAccessOrder = cudaMemcpySrcAccessOrderStream;"))
        }
        ("cudaMemcpyBatchAsync", "attrsIdxs") => Some(In("")),
        ("cudaMemcpyBatchAsync", "sizes") => Some(In("p[0] = 64;")),
        ("cudaMemcpyBatchAsync", "dsts") => Some(In("p[0] = h_fixture(h, HF_DEVBUF);")),
        ("cudaMemcpyBatchAsync", "srcs") => {
            Some(In("p[0] = (char *)h_fixture(h, HF_DEVBUF) + 2048;"))
        }
        ("cudaMemcpyBatchAsync" | "cudaMemDiscardBatchAsync", "count") => e("1"),
        (
            "cudaMemPrefetchBatchAsync" | "cudaMemDiscardAndPrefetchBatchAsync",
            "count" | "numPrefetchLocs",
        ) => e("1"),
        (
            "cudaMemPrefetchBatchAsync"
            | "cudaMemDiscardAndPrefetchBatchAsync"
            | "cudaMemDiscardBatchAsync",
            "dptrs",
        ) => Some(In("p[0] = h_fixture(h, HF_DEVBUF);")),
        (
            "cudaMemPrefetchBatchAsync"
            | "cudaMemDiscardAndPrefetchBatchAsync"
            | "cudaMemDiscardBatchAsync",
            "sizes",
        ) => Some(In("p[0] = 4096;")),
        (_, "prefetchLocs") => Some(In("p->type = cudaMemLocationTypeDevice; p->id = 0;")),
        (_, "prefetchLocIdxs") => Some(In("")),
        ("cudaMemcpy3DBatchAsync", "opList") => Some(In("")),
        ("cudaMemRangeGetAttributes", "data") => Some(In("")),
        ("cudaMemRangeGetAttributes", "dataSizes") => Some(In("p[0] = 4;")),
        ("cudaMemRangeGetAttributes", "attributes") => {
            Some(In("p[0] = cudaMemRangeAttributeReadMostly;"))
        }
        (
            "cudaMemGetDefaultMemPool"
            | "cudaMemGetMemPool"
            | "cudaMemSetMemPool"
            | "cudaMemPoolGetAccess",
            "location",
        ) => Some(In("p->type = cudaMemLocationTypeDevice; p->id = 0;")),
        ("cudaGraphAddMemAllocNode", "nodeParams") => Some(In(
            "p->poolProps.allocType = cudaMemAllocationTypePinned; \
             p->poolProps.location.type = cudaMemLocationTypeDevice; p->bytesize = 64;",
        )),
        (
            "cudaGraphAddNode" | "cudaGraphNodeSetParams" | "cudaGraphExecNodeSetParams",
            "nodeParams",
        ) => Some(In("p->type = cudaGraphNodeTypeEmpty;")),
        ("cudaGraphInstantiateWithParams", "instantiateParams") => Some(In("")),
        ("cudaStreamUpdateCaptureDependencies", "dependencies") => Some(In("")),
        ("cudaMemPoolImportPointer", "exportData") => Some(In("")),
        ("cudaLibraryLoadData" | "cudaLibraryLoadFromFile", "jitOptions" | "libraryOptions") => {
            Some(Null)
        }
        ("cudaLogsDumpToMemory" | "cudaLogsDumpToFile", "iterator") => Some(In("")),
        ("cudaLogsDumpToMemory", "size") => Some(In("p[0] = 64;")),
        (
            "cudaEGLStreamConsumerDisconnect"
            | "cudaEGLStreamProducerDisconnect"
            | "cudaEGLStreamConsumerAcquireFrame"
            | "cudaEGLStreamConsumerReleaseFrame"
            | "cudaEGLStreamProducerPresentFrame"
            | "cudaEGLStreamProducerReturnFrame",
            "conn",
        ) => Some(In("")),
        (_, "pStream") if func.starts_with("cudaEGLStream") => Some(In("")),
        // Getters of node lists: ask for the count only.
        (
            "cudaGraphGetNodes"
            | "cudaGraphGetRootNodes"
            | "cudaGraphGetEdges"
            | "cudaGraphNodeGetDependencies"
            | "cudaGraphNodeGetDependentNodes",
            "nodes" | "pRootNodes" | "from" | "to" | "edgeData" | "pDependencies"
            | "pDependentNodes",
        ) => Some(Null),
        // The setters of attributes read the value.
        ("cudaDeviceSetGraphMemAttribute" | "cudaMemPoolSetAttribute", "value") => Some(In("")),
        ("cudaDeviceSetGraphMemAttribute", "attr") => e("cudaGraphMemAttrUsedMemHigh"),
        ("cudaMemPoolImportFromShareableHandle", "shareableHandle") => Some(In("")),
        ("cudaMemPoolImportFromShareableHandle", "handleType") => e("cudaMemHandleTypeNone"),
        ("cudaDeviceSetLimit", "value") => e("1024"),
        // Host memory: pinned by the runtime, or plain.
        (_, "pHost") | ("cudaFreeHost", "ptr") => Some(Fix("PINNED")),
        ("cudaHostRegister" | "cudaHostUnregister", "ptr") => e("(void *)h_hostbuf"),
        // A graph other than the one the node is added to; the clone of it.
        (_, "childGraph") => Some(Fix("CHILDGRAPH")),
        ("cudaGraphNodeFindInClone", "clonedGraph") => Some(Fix("CLONE")),
        // Flags whose zero is not valid.
        ("cudaMallocManaged", "flags") => e("cudaMemAttachGlobal"),
        ("cudaStreamAttachMemAsync", "flags") => e("cudaMemAttachSingle"),
        ("cudaUserObjectCreate", "flags") => e("cudaUserObjectNoDestructorSync"),
        // In/out: the mode to set.
        ("cudaThreadExchangeStreamCaptureMode", "mode") => {
            Some(In("p[0] = cudaStreamCaptureModeRelaxed;"))
        }
        // harness_symbol is an int.
        (_, "count") if func.contains("Symbol") => e("4"),
        ("cudaLibraryGetGlobal" | "cudaLibraryGetManaged", "name") => e("\"harness_lib_var\""),
        ("cudaLibraryGetUnifiedFunction", "symbol") => e("\"harness_lib_kernel\""),
        ("cudaCreateTextureObject", "pResViewDesc") => Some(Null),
        ("cudaMemRangeGetAttribute", "dataSize") => e("4"),
        // Registration internals (prototypes.txt).
        ("__cudaRegisterFunction", "hostFun") => e("(const char *)harness_host_stub"),
        ("__cudaRegisterFunction", "deviceFun") => e("(char *)\"harness_lib_kernel\""),
        ("__cudaRegisterFunction", "deviceName") => e("\"harness_lib_kernel\""),
        ("__cudaRegisterFunction", "threadLimit") => e("-1"),
        ("__cudaRegisterFunction", "tid" | "bid" | "bDim" | "gDim" | "wSize") => Some(Null),
        (
            "__cudaRegisterVar" | "__cudaRegisterManagedVar" | "__cudaRegisterHostVar",
            "deviceName",
        ) => e("\"harness_lib_var\""),
        ("__cudaRegisterVar" | "__cudaRegisterManagedVar", "deviceAddress") => {
            e("(char *)\"harness_lib_var\"")
        }
        ("__cudaRegisterVar" | "__cudaRegisterHostVar", "hostVar") => e("(char *)harness_host_var"),
        ("__cudaRegisterManagedVar", "hostVarPtrAddress") => e("(void **)&harness_managed_ptr"),
        ("__cudaRegisterVar" | "__cudaRegisterManagedVar" | "__cudaRegisterHostVar", "size") => {
            e("4")
        }
        ("__cudaLaunchKernel", "kernel") => e("(cudaKernel_t)h_kernel_or_stub(h)"),
        _ => None,
    }
}

/// Pointee types whose out-value is printed as an int when written.
pub(super) fn int_like(pointee: &str) -> bool {
    matches!(pointee, "int" | "unsigned int" | "cudaLogIterator") || pointee.starts_with("enum ")
}

/// The value of an enum parameter: a valid, common one.
pub(super) fn enum_value(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "enum cudaChannelFormatKind" => "cudaChannelFormatKindFloat",
        "enum cudaDeviceAttr" => "cudaDevAttrMaxThreadsPerBlock",
        "enum cudaDeviceP2PAttr" => "cudaDevP2PAttrPerformanceRank",
        "enum cudaFlushGPUDirectRDMAWritesScope" => "cudaFlushGPUDirectRDMAWritesToOwner",
        "enum cudaFlushGPUDirectRDMAWritesTarget" => {
            "cudaFlushGPUDirectRDMAWritesTargetCurrentDevice"
        }
        "enum cudaFuncAttribute" => "cudaFuncAttributeMaxDynamicSharedMemorySize",
        "enum cudaFuncCache" => "cudaFuncCachePreferNone",
        "enum cudaGLDeviceList" => "cudaGLDeviceListAll",
        "enum cudaGraphMemAttributeType" => "cudaGraphMemAttrUsedMemCurrent",
        "enum cudaLimit" => "cudaLimitStackSize",
        "enum cudaMemAllocationHandleType" => "cudaMemHandleTypePosixFileDescriptor",
        "enum cudaMemAllocationType" => "cudaMemAllocationTypePinned",
        "enum cudaMemPoolAttr" => "cudaMemPoolAttrReleaseThreshold",
        "enum cudaMemRangeAttribute" => "cudaMemRangeAttributeReadMostly",
        "enum cudaMemcpyKind" => "cudaMemcpyDefault",
        "enum cudaMemoryAdvise" => "cudaMemAdviseSetReadMostly",
        "enum cudaSharedMemConfig" => "cudaSharedMemBankSizeDefault",
        "enum cudaStreamCaptureMode" => "cudaStreamCaptureModeGlobal",
        "cudaLaunchAttributeID" => "cudaLaunchAttributePriority",
        "cudaError_t" => "cudaErrorInvalidValue",
        _ => return None,
    })
}

/// Handles passed by value: the fixture (NULL without --gpu), or NULL.
pub(super) fn handle_fixture(ty: &str) -> Option<Arg> {
    use Arg::*;
    Some(match ty {
        "cudaStream_t" => Fix("STREAM"),
        "cudaEvent_t" => Fix("EVENT"),
        "cudaGraph_t" => Fix("GRAPH"),
        "cudaGraphNode_t" => Fix("NODE"),
        "cudaGraphExec_t" => Fix("GRAPHEXEC"),
        "cudaArray_t" | "cudaArray_const_t" => Fix("ARRAY"),
        "cudaMipmappedArray_t" | "cudaMipmappedArray_const_t" => Fix("MIPMAP"),
        "cudaMemPool_t" => Fix("MEMPOOL"),
        "cudaKernel_t" => Fix("KERNEL"),
        "cudaLibrary_t" => Fix("LIBRARY"),
        "cudaUserObject_t" => Fix("USEROBJ"),
        "cudaTextureObject_t" => Fix("TEXOBJ"),
        "cudaSurfaceObject_t" => Fix("SURFOBJ"),
        // Objects of other APIs (external memory, graphics, EGL, VDPAU)
        // and callback registrations: none to be had.
        "cudaExternalMemory_t"
        | "cudaExternalSemaphore_t"
        | "cudaGraphicsResource_t"
        | "cudaAsyncCallbackHandle_t"
        | "cudaLogsCallbackHandle"
        | "EGLImageKHR"
        | "EGLStreamKHR"
        | "EGLSyncKHR"
        | "VdpGetProcAddress *" => Null,
        _ => return None,
    })
}

/// Structs passed by value.
pub(super) fn struct_value(ty: &str) -> Option<Arg> {
    Some(match ty {
        "dim3" => Arg::Expr("dim3(1, 1, 1)".into()),
        "struct cudaExtent" => Arg::Expr("make_cudaExtent(64, 4, 1)".into()),
        "struct cudaPitchedPtr" => {
            Arg::Expr("make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4)".into())
        }
        "struct cudaMemLocation" => Arg::Expr("h_loc_device0()".into()),
        "cudaIpcMemHandle_t" | "cudaIpcEventHandle_t" | "cudaEglFrame" => Arg::Zero,
        _ => return None,
    })
}

/// Fields of input structs (by pointee type) that zero would make
/// meaningless; `p` points at the buffer.
pub(super) fn input_fields(pointee: &str) -> &'static str {
    match pointee {
        "struct cudaChannelFormatDesc" => "p->x = 32; p->f = cudaChannelFormatKindFloat;",
        "cudaLaunchConfig_t" => "p->gridDim = dim3(1, 1, 1); p->blockDim = dim3(1, 1, 1);",
        "struct cudaMemPoolProps" => {
            "p->allocType = cudaMemAllocationTypePinned; \
             p->location.type = cudaMemLocationTypeDevice; p->location.id = 0;"
        }
        "struct cudaMemAccessDesc" => {
            "p->location.type = cudaMemLocationTypeDevice; p->location.id = 0; \
             p->flags = cudaMemAccessFlagsProtReadWrite;"
        }
        "struct cudaKernelNodeParams" => {
            "p->func = (void *)harness_kernel; p->gridDim = dim3(1, 1, 1); \
             p->blockDim = dim3(1, 1, 1); p->kernelParams = harness_args;"
        }
        "struct cudaHostNodeParams" => "p->fn = (cudaHostFn_t)harness_noop;",
        "struct cudaMemsetParams" => {
            "p->dst = h_fixture(h, HF_DEVBUF); p->elementSize = 4; p->width = 16; p->height = 1;"
        }
        "struct cudaMemcpy3DParms" => {
            "p->srcPtr = make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4); \
             p->dstPtr = make_cudaPitchedPtr((char *)h_fixture(h, HF_DEVBUF) + 2048, 256, 64, 4); \
             p->extent = make_cudaExtent(64, 4, 1); p->kind = cudaMemcpyDefault;"
        }
        "struct cudaMemcpy3DPeerParms" => {
            "p->srcPtr = make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4); \
             p->dstPtr = make_cudaPitchedPtr((char *)h_fixture(h, HF_DEVBUF) + 2048, 256, 64, 4); \
             p->extent = make_cudaExtent(64, 4, 1);"
        }
        "struct cudaResourceDesc" => {
            "p->resType = cudaResourceTypeArray; p->res.array.array = (cudaArray_t)h_fixture(h, HF_ARRAY);"
        }
        _ => "",
    }
}

/// The argument for parameter `name` of type `ty` (normalized) of `func`.
pub fn arg_for(func: &str, name: &str, ty: &str) -> Result<Arg, String> {
    use Arg::*;
    let base = func
        .strip_suffix("_ptds")
        .or_else(|| func.strip_suffix("_ptsz"))
        .unwrap_or(func);
    if let Some(a) = override_for(base, name) {
        return Ok(a);
    }
    let num = |s: &str| Ok(Expr(s.to_string()));
    // Scalars.
    match ty {
        "int" => {
            return match name {
                "len" => num("64"),
                "x" => num("32"),
                "count" | "numBlocks" => num("1"),
                "blockSize" => num("32"),
                // device, srcDevice, dstDevice, peerDevice, value, flags,
                // priority, y, z, w, ext, constant, global...
                _ => num("0"),
            };
        }
        "unsigned int" | "unsigned" => {
            return match name {
                "count" | "numExtSems" | "numKernels" | "numLevels" | "initialRefcount"
                | "isEnabled" | "cudaDeviceCount" => num("1"),
                "cudaVersion" => num("13000"),
                // flags, level, indices, numJitOptions, timeout...
                _ => num("0"),
            };
        }
        "size_t" => {
            return match name {
                "numDependencies" | "offset" | "wOffset" | "hOffset" | "wOffsetDst"
                | "hOffsetDst" | "wOffsetSrc" | "hOffsetSrc" | "paramIndex" | "minBytesToKeep"
                | "sharedMem" | "dynamicSMemSize" | "length" => num("0"),
                "dpitch" | "spitch" | "pitch" => num("256"),
                "height" => num("4"),
                "numOps" | "numAttrs" | "numAttributes" => num("1"),
                // sizes and counts in bytes, widths
                _ => num("64"),
            };
        }
        "unsigned long long" => return num("0"),
        "GLuint" | "VdpDevice" | "VdpVideoSurface" | "VdpOutputSurface" => return num("0"),
        "GLenum" => return num("0x0DE1"), // GL_TEXTURE_2D
        "EGLint" => return num("64"),
        _ => {}
    }
    if let Some(v) = enum_value(ty) {
        return Ok(Expr(v.to_string()));
    }
    if let Some(a) = handle_fixture(ty) {
        return Ok(a);
    }
    if let Some(a) = struct_value(ty) {
        return Ok(a);
    }
    if matches!(
        ty,
        "cudaStreamCallback_t" | "cudaHostFn_t" | "cudaAsyncCallback" | "cudaLogsCallback_t"
    ) {
        return Ok(Expr(format!("({ty})harness_noop")));
    }
    // Pointers, by name where the type says too little.
    match ty {
        "const char *" => {
            return match name {
                "pciBusId" => num("\"0000:00:00.0\""),
                "symbol" => num("\"cuInit\""),
                "name" => num("\"harness_lib_kernel\""),
                "path" | "pathToFile" => num("\"/dev/null\""),
                "fileName" => num("\"/nonexistent/harness.fatbin\""),
                _ => Err(format!("no rule for the string parameter {name}")),
            }
        }
        "const void *" => {
            return match name {
                "func" | "entryFuncAddr" | "symbolPtr" | "hostFun" => {
                    num("(const void *)harness_kernel")
                }
                "symbol" => num("(const void *)&harness_symbol"),
                "code" => num("(const void *)harness_fatbin"),
                "src" | "devPtr" | "ptr" => Ok(Fix("DEVBUF")),
                _ => Err(format!("no rule for the const void * parameter {name}")),
            }
        }
        "void *" => {
            return match name {
                "devPtr" | "dst" | "ptr" | "dptr" | "pHost" => Ok(Fix("DEVBUF")),
                "userData" => Ok(Null),
                "fatCubin" => num("h_wrapper()"),
                "unknown0" | "unknown1" | "unknown2" | "unknown3" | "unknown4" | "unknown5" => {
                    Ok(Null)
                }
                // Getters' results.
                "value" | "data" | "dptr_out" | "nvSciSyncAttrList" | "shareableHandle" => {
                    Ok(Out { int_value: false })
                }
                _ => Err(format!("no rule for the void * parameter {name}")),
            };
        }
        "void * *" => {
            return match name {
                "args" => num("harness_args"),
                "fatCubinHandle" => Ok(Fix("FATHANDLE")),
                "jitOptionsValues" | "libraryOptionValues" => Ok(Null),
                _ => Ok(Out { int_value: false }),
            }
        }
        "void * const *" | "const void * const *" => return Ok(In("")),
        _ => {}
    }
    if let Some(pointee) = ty.strip_suffix(" *") {
        if pointee.starts_with("const ") && !pointee.ends_with('*') {
            // An input: a struct, or an array of handles, enums or sizes.
            return Ok(In(input_fields(pointee.trim_start_matches("const "))));
        }
        // Non-const pointers (and pointers to pointers) are results.
        return Ok(Out {
            int_value: int_like(pointee),
        });
    }
    Err(format!("no rule for the type {ty:?}"))
}
