//! Memory pools and stream-ordered allocation (`cudaMallocAsync`, `cudaFreeAsync`).
