//! The `cudaLibrary*` functions and driver entry points (`cudaGetDriverEntryPoint*`).
