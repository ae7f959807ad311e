//! Entry points for libraries (`cudaLibrary*`), driver entry points, occupancy and cooperative launches, profiler and logs.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{call, CStrArg, In, Needs, Out};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {}
