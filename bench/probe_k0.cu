// The one kernel of probe_load's images (bench/Makefile: k0.fatbin, k0.cubin).
__global__ void k0() {}
