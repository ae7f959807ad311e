//! Entry points for memory beyond the core: 3D copies, arrays and mipmapped arrays, texture and surface objects, memory pools and stream-ordered allocation, managed-memory prefetch and advice, IPC memory, peer copies.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{call, CStrArg, In, Needs, Out};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {}
