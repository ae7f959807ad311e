//! Graphs: explicit construction, capture results, instantiation, update, upload, launch, debug output.
