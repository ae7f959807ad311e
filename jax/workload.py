#!/usr/bin/env python3
"""A JAX workload that exercises libcudart.so.13 the way JAX programs do.

Run it under NVIDIA's runtime and under ours (jax/run.sh does both, in one
device run) and compare the JSON it prints: every part reports whether it
ran, its results or the exception it raised, and its wall time.

    python3 jax/workload.py [--parts a,b,...] > result.json

Parts (WORKLOAD_PARTS or --parts, a comma list, picks some; default all):
  devices    jax.devices(), platform and device kind, the versions the CUDA
             plugin reads (cudaRuntimeGetVersion and the libraries'), the
             first device op
  transfer   device_put / np.asarray round trips of several dtypes and
             sizes (64 MiB among them), a strided host array, a device
             copy, pinned_host memory where the device offers it
  jit        a small MLP forward pass under jax.jit, called twice, and at
             a second shape (a second compilation)
  grad       jax.value_and_grad of a mean-squared loss of that MLP,
             checked against a backward pass written out in NumPy
  vmap       per-example gradients with vmap(grad(...)) against a loop,
             and a vmapped matrix-vector product
  matmul     cuBLAS: float32 at HIGHEST precision, float32 at DEFAULT
             (TF32 allowed), bfloat16 and float16, a batched einsum
  conv       cuDNN: lax.conv_general_dilated NCHW/OIHW and NHWC/HWIO with
             stride and dilation, float32 and bfloat16, and its gradients
  fft        cuFFT: fft, ifft, rfft2/irfft2, a batched non-power-of-2 fft
  random     jax.random with fixed keys: normal, uniform, randint, bits,
             permutation, split, exact values; the threefry CUDA kernel
             of the plugin where the config still offers it
  sort       jnp.sort / argsort (stable, with ties), a 2-D sort, top_k,
             searchsorted
  reduce     sum, mean, max, min, argmax, cumsum, logsumexp, an exact
             integer sum
  autotune   matmul and conv again in a child process with XLA's default
             flags (autotuning on): only the tolerance checks are compared

Determinism: unless WORKLOAD_XLA_FLAGS says otherwise, the process adds
`--xla_gpu_deterministic_ops=true --xla_gpu_autotune_level=0` to
XLA_FLAGS before JAX starts, so the same kernels and algorithms are picked
whatever a timing measured (WORKLOAD_XLA_FLAGS='' adds nothing).

Result keys (jax/report.py compares them by these rules):
  digest, *_digest   sha256 of the result arrays' bytes (dtype, shape,
                     bytes): equal means bitwise equal
  *_close            a tolerance check against NumPy (float64) or against
                     another way of computing it; the tolerance is named
                     in the code next to it
  *_err              the measured error behind a *_close (not compared)
  *_s                times (not compared); *libcudart: mapped files (not
                     compared); info: informational (not compared)
  anything else      must be equal (floats are rounded where they are sums)
Every process also reports which libcudart files it has mapped
(/proc/self/maps, every path whose basename starts with libcudart).
"""
import argparse
import contextlib
import hashlib
import importlib
import json
import os
import subprocess
import sys
import time

ALL_PARTS = ("devices", "transfer", "jit", "grad", "vmap", "matmul", "conv",
             "fft", "random", "sort", "reduce", "autotune")
DETERMINISTIC_XLA_FLAGS = "--xla_gpu_deterministic_ops=true --xla_gpu_autotune_level=0"


def mapped_cudarts():
    libs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()
                if (len(p) >= 6 and p[-1].startswith("/")
                        and os.path.basename(p[-1]).startswith("libcudart") and p[-1] not in libs):
                    libs.append(p[-1])
    except OSError:
        pass
    return libs


def digest(*arrays):
    import numpy as np
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(np.asarray(a))
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


def rnd(x, sig=6):
    """A float rounded to `sig` significant digits (for sums shown in the report)."""
    return float("%.*g" % (sig, float(x)))


def rel_err(got, ref):
    """max |got - ref| / max |ref|, in float64 (complex: on the modulus)."""
    import numpy as np
    got = np.asarray(got).astype(np.complex128 if np.iscomplexobj(got) else np.float64)
    ref = np.asarray(ref).astype(np.complex128 if np.iscomplexobj(ref) else np.float64)
    if got.shape != ref.shape:
        return float("inf")
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    return float(np.max(np.abs(got - ref))) / max(scale, 1e-30) if ref.size else 0.0


def check(res, name, got, ref, tol):
    """Records name_err and name_close (rel_err <= tol) into res."""
    e = rel_err(got, ref)
    res[name + "_err"] = float("%.3g" % e)
    res[name + "_close"] = bool(e <= tol)


def same_bytes(a, b):
    import numpy as np
    a, b = np.asarray(a), np.asarray(b)
    return bool(a.dtype == b.dtype and a.shape == b.shape
                and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())


def err_text(e):
    return "%s: %s" % (type(e).__name__, str(e)[:800])


# ---------------------------------------------------------------- parts

def part_devices(jax, args):
    import jax.numpy as jnp
    t0 = time.perf_counter()
    devs = jax.devices()
    t1 = time.perf_counter()
    x = jnp.ones(4)
    x.block_until_ready()
    t2 = time.perf_counter()
    d = devs[0]
    res = {"backend": jax.default_backend(), "count": len(devs),
           "devices": [str(x) for x in devs], "kinds": [x.device_kind for x in devs],
           "platform": d.platform, "ids": [x.id for x in devs],
           "first_op_value": float(x.sum()),
           "backend_init_s": t1 - t0, "first_op_s": t2 - t1}
    for attr in ("compute_capability", "core_count"):
        v = getattr(d, attr, None)
        if v is not None:
            res[attr] = v if isinstance(v, (int, float, str)) else str(v)
    try:
        res["platform_version"] = d.client.platform_version
    except Exception as e:  # noqa: BLE001
        res["platform_version"] = err_text(e)
    try:
        res["memory_kinds"] = sorted(m.kind for m in d.addressable_memories())
    except Exception as e:  # noqa: BLE001
        res["memory_kinds"] = err_text(e)
    # What the CUDA plugin's version check reads (cudaRuntimeGetVersion,
    # cudaDriverGetVersion through the runtime, the libraries' versions).
    versions = {}
    mod = None
    for name in ("jax_cuda13_plugin._versions", "jax_cuda12_plugin._versions"):
        try:
            mod = importlib.import_module(name)
            versions["module"] = name
            break
        except Exception:  # noqa: BLE001
            continue
    if mod is not None:
        for fn in ("cuda_runtime_get_version", "cuda_runtime_build_version",
                   "cuda_driver_get_version", "cudnn_get_version", "cufft_get_version",
                   "cublas_get_version", "cusparse_get_version", "cupti_get_version",
                   "cuda_device_count"):
            if hasattr(mod, fn):
                try:
                    versions[fn] = getattr(mod, fn)()
                except Exception as e:  # noqa: BLE001
                    versions[fn] = err_text(e)
        if hasattr(mod, "cuda_compute_capability"):
            try:
                versions["cuda_compute_capability_0"] = mod.cuda_compute_capability(0)
            except Exception as e:  # noqa: BLE001
                versions["cuda_compute_capability_0"] = err_text(e)
    res["plugin_versions"] = versions
    info = {}
    try:
        st = d.memory_stats() or {}
        info = {k: st[k] for k in ("bytes_limit", "bytes_in_use", "peak_bytes_in_use") if k in st}
    except Exception as e:  # noqa: BLE001
        info["memory_stats"] = err_text(e)
    res["info"] = info
    if d.platform != "gpu":
        raise RuntimeError("not on a GPU: platform %s, devices %s" % (d.platform, res["devices"]))
    return res


def part_transfer(jax, args):
    import numpy as np
    import jax.numpy as jnp
    dev = jax.devices()[0]
    rng = np.random.default_rng(10)
    host = {
        "f32": rng.standard_normal(1 << 20).astype(np.float32),
        "i8": rng.integers(-128, 128, size=12345, dtype=np.int8),
        "u32_2d": rng.integers(0, 2 ** 32, size=(333, 77), dtype=np.uint32),
        "bool": rng.random(1001) > 0.5,
        "bf16": rng.standard_normal(4097).astype(jnp.bfloat16),
        "f16_empty": np.zeros((0, 3), np.float16),
        "strided": rng.standard_normal((512, 256)).astype(np.float32)[::2, 1::3],
    }
    res = {}
    for k, a in host.items():
        back = np.asarray(jax.device_put(a, dev))
        res[k] = same_bytes(back, np.ascontiguousarray(a))
    big = rng.integers(0, 256, size=64 << 20, dtype=np.uint8)
    t0 = time.perf_counter()
    xb = jax.device_put(big, dev)
    xb.block_until_ready()
    t1 = time.perf_counter()
    back = np.asarray(xb)
    t2 = time.perf_counter()
    res["big_64MiB"] = same_bytes(back, big)
    res["h2d_64MiB_s"], res["d2h_64MiB_s"] = t1 - t0, t2 - t1
    y = jnp.copy(xb)  # device-to-device
    y.copy_to_host_async()
    res["d2d_copy_then_async_d2h"] = same_bytes(np.asarray(y), big)
    tree = {"a": jnp.arange(10), "b": (jnp.ones(3), jnp.zeros((2, 2), jnp.int32))}
    got = jax.device_get(tree)
    res["device_get_tree"] = bool(np.array_equal(got["a"], np.arange(10))
                                  and np.array_equal(got["b"][0], np.ones(3))
                                  and got["b"][1].shape == (2, 2))
    res["digest"] = digest(back[:4096], np.asarray(y)[-4096:])
    # Host memory spaces (cudaHostAlloc'd buffers behind pinned_host).
    for kind in ("pinned_host", "unpinned_host"):
        try:
            s = jax.sharding.SingleDeviceSharding(dev, memory_kind=kind)
            p = jax.device_put(host["f32"], s)
            q = jax.device_put(p, jax.sharding.SingleDeviceSharding(dev, memory_kind="device"))
            res[kind] = same_bytes(np.asarray(p), host["f32"]) and same_bytes(np.asarray(q), host["f32"])
        except Exception as e:  # noqa: BLE001 - the same error under both runtimes is a result
            res[kind] = err_text(e)[:200]
    return res


def _mlp_params(np, seed):
    rng = np.random.default_rng(seed)
    f32 = np.float32
    return {"W1": (rng.standard_normal((64, 128)) / 8).astype(f32),
            "b1": (rng.standard_normal(128) / 10).astype(f32),
            "W2": (rng.standard_normal((128, 10)) / 11).astype(f32),
            "b2": (rng.standard_normal(10) / 10).astype(f32)}, rng


def _mlp(jax):
    import jax.numpy as jnp
    hi = jax.lax.Precision.HIGHEST

    def mlp(p, x):
        h = jnp.tanh(jnp.dot(x, p["W1"], precision=hi) + p["b1"])
        return jnp.dot(h, p["W2"], precision=hi) + p["b2"]
    return mlp


def _mlp_np(np, p, x):
    p = {k: v.astype(np.float64) for k, v in p.items()}
    h = np.tanh(x.astype(np.float64) @ p["W1"] + p["b1"])
    return h, h @ p["W2"] + p["b2"]


def part_jit(jax, args):
    import numpy as np
    params, rng = _mlp_params(np, 11)
    x = rng.standard_normal((256, 64)).astype(np.float32)
    f = jax.jit(_mlp(jax))
    out = f(params, x)
    out2 = f(params, x)
    small = f(params, x[:100])  # another shape: a second compilation
    out.block_until_ready()
    res = {"digest": digest(out, small), "repeat_same": same_bytes(out, out2),
           "sum": rnd(np.asarray(out, np.float64).sum())}
    # float32 against float64, HIGHEST precision, tanh: 1e-5 of the largest value
    check(res, "forward", out, _mlp_np(np, params, x)[1], 1e-5)
    check(res, "small", small, np.asarray(out)[:100], 1e-6)
    return res


def _loss(jax):
    import jax.numpy as jnp
    mlp = _mlp(jax)

    def loss(p, x, y):
        return jnp.mean((mlp(p, x) - y) ** 2)
    return loss


def _grads_np(np, p, x, y):
    h, out = _mlp_np(np, p, x)
    p = {k: v.astype(np.float64) for k, v in p.items()}
    x = x.astype(np.float64)
    dout = 2 * (out - y) / out.size
    g = {"W2": h.T @ dout, "b2": dout.sum(0)}
    dpre = (dout @ p["W2"].T) * (1 - h ** 2)
    g["W1"], g["b1"] = x.T @ dpre, dpre.sum(0)
    return float(np.mean((out - y) ** 2)), g


def part_grad(jax, args):
    import numpy as np
    params, rng = _mlp_params(np, 12)
    x = rng.standard_normal((128, 64)).astype(np.float32)
    y = rng.standard_normal((128, 10)).astype(np.float32)
    vg = jax.jit(jax.value_and_grad(_loss(jax)))
    loss, g = vg(params, x, y)
    g2 = jax.jit(jax.grad(_loss(jax)))(params, x, y)
    ref_loss, ref_g = _grads_np(np, params, x, y)
    keys = sorted(g)
    res = {"digest": digest(loss, *[g[k] for k in keys]), "loss": rnd(loss),
           "grad_equals_value_and_grad": all(same_bytes(g[k], g2[k]) for k in keys)}
    check(res, "loss", loss, ref_loss, 1e-5)
    for k in keys:  # float32 backward against float64: 1e-4 of the largest entry
        check(res, "grad_" + k, g[k], ref_g[k], 1e-4)
    return res


def part_vmap(jax, args):
    import numpy as np
    import jax.numpy as jnp
    params, rng = _mlp_params(np, 13)
    x = rng.standard_normal((32, 64)).astype(np.float32)
    y = rng.standard_normal((32, 10)).astype(np.float32)
    loss = _loss(jax)

    def one(p, xi, yi):
        return loss(p, xi[None], yi[None])
    per_ex = jax.jit(jax.vmap(jax.grad(one), in_axes=(None, 0, 0)))(params, x, y)
    g1 = jax.jit(jax.grad(one))
    loop = [g1(params, x[i], y[i]) for i in range(x.shape[0])]
    res = {"digest": digest(*[per_ex[k] for k in sorted(per_ex)])}
    for k in sorted(per_ex):  # batched against one at a time: 1e-5
        check(res, "per_example_" + k, per_ex[k], np.stack([np.asarray(g[k]) for g in loop]), 1e-5)
    m = rng.standard_normal((16, 48, 40)).astype(np.float32)
    v = rng.standard_normal((16, 40)).astype(np.float32)
    mv = jax.jit(jax.vmap(lambda a, b: jnp.dot(a, b, precision=jax.lax.Precision.HIGHEST)))(m, v)
    res["matvec_digest"] = digest(mv)
    check(res, "matvec", mv, np.einsum("bij,bj->bi", m.astype(np.float64), v.astype(np.float64)), 1e-5)
    return res


def part_matmul(jax, args):
    import numpy as np
    import jax.numpy as jnp
    lax = jax.lax
    rng = np.random.default_rng(14)
    a = rng.standard_normal((1024, 768)).astype(np.float32)
    b = rng.standard_normal((768, 512)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    res = {}
    mm = jax.jit(lambda x, y, p: jnp.matmul(x, y, precision=p), static_argnums=2)
    c = mm(a, b, lax.Precision.HIGHEST)
    res["f32_digest"], res["f32_sum"] = digest(c), rnd(np.asarray(c, np.float64).sum())
    check(res, "f32", c, ref, 1e-5)           # true float32: 1e-5 of the largest entry
    c = mm(a, b, lax.Precision.DEFAULT)
    res["f32_default_digest"] = digest(c)
    check(res, "f32_default", c, ref, 1e-2)   # TF32 inputs (10-bit mantissa): 1e-2
    for name, dt in (("bf16", jnp.bfloat16), ("f16", jnp.float16)):
        a2, b2 = a.astype(dt), b.astype(dt)
        c = mm(a2, b2, lax.Precision.DEFAULT)
        res[name + "_digest"] = digest(c)
        res[name + "_dtype"] = str(c.dtype)
        res[name + "_sum"] = rnd(np.asarray(c, np.float64).sum(), 4)
        # against the rounded inputs in float64; the result is rounded to
        # bf16 (8 bits) or f16 (11 bits): 1e-2 of the largest entry
        check(res, name, c, a2.astype(np.float64) @ b2.astype(np.float64), 1e-2)
    x = rng.standard_normal((8, 64, 96)).astype(np.float32)
    y = rng.standard_normal((8, 96, 80)).astype(np.float32)
    bmm = jax.jit(lambda x, y: jnp.einsum("bij,bjk->bik", x, y, precision=lax.Precision.HIGHEST))(x, y)
    res["batched_digest"] = digest(bmm)
    check(res, "batched", bmm, np.einsum("bij,bjk->bik", x.astype(np.float64), y.astype(np.float64)), 1e-5)
    return res


def _conv_np(np, x, w, stride=1, dil=1, pad=1):
    """NCHW x OIHW cross-correlation in float64 (what lax.conv computes)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    kh, kw = w.shape[2:]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ekh, ekw = (kh - 1) * dil + 1, (kw - 1) * dil + 1
    win = np.lib.stride_tricks.sliding_window_view(xp, (ekh, ekw), axis=(2, 3))
    win = win[:, :, ::stride, ::stride, ::dil, ::dil]
    return np.einsum("nchwij,ocij->nohw", win, w)


def part_conv(jax, args):
    import numpy as np
    import jax.numpy as jnp
    lax = jax.lax
    hi = lax.Precision.HIGHEST
    rng = np.random.default_rng(15)
    x = rng.standard_normal((4, 16, 32, 32)).astype(np.float32)
    w = (rng.standard_normal((32, 16, 3, 3)) / 12).astype(np.float32)
    res = {}

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"), precision=hi)
    out = jax.jit(conv)(x, w)
    res["nchw_digest"] = digest(out)
    res["nchw_sum"] = rnd(np.asarray(out, np.float64).sum())
    check(res, "nchw", out, _conv_np(np, x, w), 1e-5)
    # NHWC/HWIO (cuDNN's preferred layout), stride 2, dilation 2
    xh, wh = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)
    out2 = jax.jit(lambda x, w: lax.conv_general_dilated(
        x, w, (2, 2), ((2, 2), (2, 2)), rhs_dilation=(2, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC"), precision=hi))(xh, wh)
    res["nhwc_digest"] = digest(out2)
    check(res, "nhwc", np.asarray(out2).transpose(0, 3, 1, 2),
          _conv_np(np, x, w, stride=2, dil=2, pad=2), 1e-5)
    out3 = jax.jit(conv)(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16))
    res["bf16_digest"] = digest(out3)
    check(res, "bf16", out3, _conv_np(np, x.astype(jnp.bfloat16), w.astype(jnp.bfloat16)), 2e-2)
    # backward data and backward filter
    gx, gw = jax.jit(jax.grad(lambda x, w: jnp.sum(conv(x, w) ** 2), argnums=(0, 1)))(x, w)
    res["grad_digest"] = digest(gx, gw)
    ref = _conv_np(np, x, w)
    win = np.lib.stride_tricks.sliding_window_view(
        np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), axis=(2, 3))
    check(res, "grad_w", gw, np.einsum("nohw,nchwij->ocij", 2 * ref, win), 1e-4)
    # d/dx of sum(conv^2) = conv_transpose(2*out, w): a correlation with the
    # flipped, transposed kernel
    wt = w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3)
    check(res, "grad_x", gx, _conv_np(np, 2 * ref, wt), 1e-4)
    return res


def part_fft(jax, args):
    import numpy as np
    import jax.numpy as jnp
    rng = np.random.default_rng(16)
    z = (rng.standard_normal(4096) + 1j * rng.standard_normal(4096)).astype(np.complex64)
    r2 = rng.standard_normal((64, 128)).astype(np.float32)
    b = rng.standard_normal((8, 1000)).astype(np.float32)  # 1000 = 2^3 5^3
    p = rng.standard_normal(997).astype(np.float32)          # a prime length
    f = jax.jit(jnp.fft.fft)(z)
    inv = jax.jit(jnp.fft.ifft)(f)
    rf = jax.jit(jnp.fft.rfft2)(r2)
    back = jax.jit(lambda a: jnp.fft.irfft2(a, s=r2.shape))(rf)
    bf = jax.jit(lambda a: jnp.fft.fft(a, axis=-1))(b)
    pf = jax.jit(jnp.fft.rfft)(p)
    res = {"digest": digest(f, inv, rf, back, bf, pf), "dtypes": [str(f.dtype), str(rf.dtype)]}
    # complex64 / float32 transforms against NumPy's float64 ones: 1e-5 of
    # the largest coefficient (1e-4 for the prime length)
    check(res, "fft", f, np.fft.fft(z.astype(np.complex128)), 1e-5)
    check(res, "ifft_roundtrip", inv, z, 1e-5)
    check(res, "rfft2", rf, np.fft.rfft2(r2.astype(np.float64)), 1e-5)
    check(res, "irfft2_roundtrip", back, r2, 1e-5)
    check(res, "batched_fft", bf, np.fft.fft(b.astype(np.float64), axis=-1), 1e-5)
    check(res, "prime_rfft", pf, np.fft.rfft(p.astype(np.float64)), 1e-4)
    return res


def part_random(jax, args):
    import numpy as np
    import jax.numpy as jnp
    random = jax.random
    key = random.key(42) if hasattr(random, "key") else random.PRNGKey(42)
    k1, k2, k3, k4 = random.split(key, 4)
    n = random.normal(k1, (100000,))
    u = random.uniform(k2, (100000,))
    i = random.randint(k3, (10000,), 0, 1000)
    bits = random.bits(k4, (16,), jnp.uint32)
    perm = random.permutation(k4, 1000)
    nb = random.normal(k1, (1000,), dtype=jnp.bfloat16)
    kd = random.key_data(k1) if hasattr(random, "key_data") else k1
    try:
        impl = str(getattr(jax.config, "jax_default_prng_impl"))
    except Exception:  # noqa: BLE001
        impl = "?"
    res = {"impl": impl,
           "key_data": [int(v) for v in np.asarray(kd).ravel()],
           # exact values: float32 -> Python float is exact
           "normal_first": [float(v) for v in np.asarray(n[:4])],
           "uniform_first": [float(v) for v in np.asarray(u[:4])],
           "randint_first": [int(v) for v in np.asarray(i[:8])],
           "bits": [int(v) for v in np.asarray(bits)],
           "digest": digest(n, u, i, bits, perm, nb),
           "normal_mean": round(float(np.mean(np.asarray(n, np.float64))), 4),
           "normal_std": round(float(np.std(np.asarray(n, np.float64))), 4),
           "uniform_in_range": bool(np.all((np.asarray(u) >= 0) & (np.asarray(u) < 1))),
           "permutation_is_permutation": bool(np.array_equal(np.sort(np.asarray(perm)), np.arange(1000)))}
    # The threefry CUDA kernel of the plugin (a custom call launched
    # through the runtime), where this JAX still has the option.
    try:
        with _config(jax, "jax_threefry_gpu_kernel_lowering", True):
            kb = jax.jit(lambda k: random.bits(k, (16,), jnp.uint32))(k4)
            kn = jax.jit(lambda k: random.normal(k, (100000,)))(k1)
            res["gpu_kernel_bits_same"] = same_bytes(kb, bits)
            res["gpu_kernel_normal_same"] = same_bytes(kn, n)
    except Exception as e:  # noqa: BLE001 - e.g. the option is gone: the same under both
        res["gpu_kernel"] = err_text(e)[:200]
    return res


@contextlib.contextmanager
def _config(jax, name, value):
    """jax.config.update(name, value) for the with block."""
    try:
        prev = getattr(jax.config, name)
    except Exception:  # noqa: BLE001 - reading options by attribute may go away
        prev = jax.config._read(name) if hasattr(jax.config, "_read") else False
    jax.config.update(name, value)
    try:
        yield
    finally:
        jax.config.update(name, prev)


def part_sort(jax, args):
    import numpy as np
    import jax.numpy as jnp
    rng = np.random.default_rng(17)
    a = rng.permutation(1 << 20).astype(np.float32)          # distinct values
    d = rng.integers(0, 100, size=200000).astype(np.int32)   # many ties
    m = rng.standard_normal((256, 1000)).astype(np.float32)
    s, o = jnp.sort(a), jnp.argsort(a)
    od = jnp.argsort(d, stable=True)
    sm = jnp.sort(m, axis=-1)
    tv, ti = jax.lax.top_k(jnp.asarray(a), 100)
    q = rng.standard_normal(1000).astype(np.float32)
    sorted_ref = np.sort(a)
    ss = jnp.searchsorted(jnp.asarray(sorted_ref), q)
    return {"digest": digest(s, o, od, sm, tv, ti, ss),
            "sort_equals_numpy": bool(np.array_equal(np.asarray(s), sorted_ref)),
            "argsort_equals_numpy": bool(np.array_equal(np.asarray(o), np.argsort(a, kind="stable"))),
            "stable_argsort_equals_numpy": bool(np.array_equal(np.asarray(od), np.argsort(d, kind="stable"))),
            "sort_2d_equals_numpy": bool(np.array_equal(np.asarray(sm), np.sort(m, axis=-1))),
            "top_k_equals_numpy": bool(np.array_equal(np.asarray(tv), sorted_ref[::-1][:100])),
            "searchsorted_equals_numpy": bool(np.array_equal(np.asarray(ss), np.searchsorted(sorted_ref, q)))}


def part_reduce(jax, args):
    import numpy as np
    import jax.numpy as jnp
    from jax.scipy.special import logsumexp
    rng = np.random.default_rng(18)
    x = rng.standard_normal(1 << 22).astype(np.float32)
    n = rng.integers(-1000, 1000, size=1 << 22).astype(np.int32)
    f = jax.jit(lambda x: jnp.stack([jnp.sum(x), jnp.mean(x), jnp.max(x), jnp.min(x),
                                     jnp.std(x), logsumexp(x)]))
    r = f(x)
    am = jnp.argmax(x)
    cs = jax.jit(jnp.cumsum)(x[:100000])
    isum = jnp.sum(n)
    x64 = x.astype(np.float64)
    ref = np.array([x64.sum(), x64.mean(), x64.max(), x64.min(), x64.std(),
                    np.log(np.sum(np.exp(x64)))])
    res = {"digest": digest(r, am, cs), "values": [rnd(v) for v in np.asarray(r)],
           "argmax_equals_numpy": int(am) == int(np.argmax(x)),
           "int_sum_exact": int(isum) == int(n.astype(np.int64).sum()), "int_sum": int(isum)}
    # float32 reductions over 4M values against float64, per value
    errs = [abs(float(g) - float(e)) / max(abs(float(e)), 1.0) for g, e in zip(np.asarray(r), ref)]
    res["stats_err"] = float("%.3g" % max(errs))
    res["stats_close"] = max(errs) <= 1e-4
    check(res, "cumsum", cs, np.cumsum(x64[:100000]), 1e-4)
    return res


def part_autotune(jax, args):
    env = dict(os.environ, XLA_FLAGS=os.environ.get("WORKLOAD_ORIG_XLA_FLAGS", ""),
               WORKLOAD_XLA_FLAGS="", WORKLOAD_PARTS="matmul,conv")
    cmd = [sys.executable, os.path.abspath(__file__), "--child"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    if p.returncode != 0:
        raise RuntimeError("child rc %d: %s" % (p.returncode, p.stderr[-600:]))
    child = json.loads(p.stdout)
    res = {"child_xla_flags": child.get("xla_flags", "")}
    for name, part in child["parts"].items():
        if not part.get("ok"):
            res[name] = part.get("error", "failed")
            continue
        for k, v in part["result"].items():
            if k.endswith("_close") or k.endswith("_err"):
                res["%s_%s" % (name, k)] = v
    res["child_libcudart"] = child.get("libcudart", [])
    return res


# ---------------------------------------------------------------- driver

def versions():
    out = {}
    try:
        from importlib import metadata
    except ImportError:
        return out
    for dist in ("jax", "jaxlib", "jax-cuda13-plugin", "jax-cuda13-pjrt", "numpy", "ml_dtypes"):
        try:
            out[dist] = metadata.version(dist)
        except Exception:  # noqa: BLE001
            pass
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default=os.environ.get("WORKLOAD_PARTS") or ",".join(ALL_PARTS),
                    help="comma list of parts (default: $WORKLOAD_PARTS, else all)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in ALL_PARTS]
    if unknown:
        ap.error("unknown parts %s (known: %s)" % (",".join(unknown), ",".join(ALL_PARTS)))

    orig = os.environ.get("XLA_FLAGS", "")
    os.environ.setdefault("WORKLOAD_ORIG_XLA_FLAGS", orig)
    extra = os.environ.get("WORKLOAD_XLA_FLAGS", DETERMINISTIC_XLA_FLAGS)
    if extra:
        os.environ["XLA_FLAGS"] = (orig + " " + extra).strip()

    t0 = time.perf_counter()
    import jax
    t_import = time.perf_counter() - t0
    lib = os.environ.get("CUDART_LIB", "")
    doc = {"versions": versions(), "jax": getattr(jax, "__version__", "?"),
           "xla_flags": os.environ.get("XLA_FLAGS", ""),
           "env": {k: os.environ.get(k) for k in ("JAX_PLATFORMS", "XLA_PYTHON_CLIENT_PREALLOCATE",
                                                  "WORKLOAD_PARTS", "CUDART_LIB")},
           "cudart_lib": lib, "cudart_lib_real": os.path.realpath(lib) if lib else "",
           "import_s": t_import, "parts": {}}
    for name in parts:
        fn = globals()["part_" + name]
        t = time.perf_counter()
        try:
            res = fn(jax, args)
            doc["parts"][name] = {"ok": True, "result": res, "time_s": time.perf_counter() - t}
        except Exception as e:  # noqa: BLE001 - a failure is a result here
            doc["parts"][name] = {"ok": False, "error": err_text(e), "time_s": time.perf_counter() - t}
        if not args.child:
            p = doc["parts"][name]
            print("workload: %-9s %s %.2fs" % (name, "ok" if p["ok"] else "FAIL " + p["error"][:200],
                                               p["time_s"]), file=sys.stderr)
    try:  # after the parts, so that `devices` times the backend's start
        devs = jax.devices()
        doc["platform"] = devs[0].platform
        doc["device_kind"] = devs[0].device_kind
    except Exception as e:  # noqa: BLE001
        doc["platform"] = "error: " + err_text(e)[:300]
        doc["device_kind"] = None
    doc["libcudart"] = mapped_cudarts()
    doc["total_s"] = time.perf_counter() - t0

    def plain(o):  # numpy scalars and arrays, tuples of them
        if hasattr(o, "tolist"):
            return o.tolist()
        return str(o)
    json.dump(doc, sys.stdout, indent=1, default=plain)
    sys.stdout.write("\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
