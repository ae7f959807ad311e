//! Graphics interop (OpenGL, EGL, VDPAU, `cudaGraphics*`) through the driver.
