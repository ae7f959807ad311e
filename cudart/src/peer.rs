//! Peer access between devices and peer copies.
