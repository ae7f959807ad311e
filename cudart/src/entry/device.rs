//! Entry points for devices beyond the core (peer access, P2P attributes, flags and limits), occupancy, cooperative launches, libraries (`cudaLibrary*`), driver entry points, profiler, external memory and semaphores, graphics interop.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{call, CStrArg, In, Needs, Out};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {}
