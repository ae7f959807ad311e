//! Texture and surface objects, channel descriptors.
