/* hostlib: the same shape as fatlib.so without CUDA (issue 30): what
 * dlopen of a small library costs the loader alone, scale_fatbin's floor. */
int hostlib_value(int v) { return v + 1; }
