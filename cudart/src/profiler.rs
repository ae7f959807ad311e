//! Profiler start and stop, and the graphics-interop functions.
