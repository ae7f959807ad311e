//! CUDA arrays and mipmapped arrays, and the copies that involve them (2D/3D, to and from arrays).
