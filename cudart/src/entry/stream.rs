//! Entry points for streams and events beyond the core: capture, attributes, ids, IPC event handles.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{call, CStrArg, In, Needs, Out};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {}
