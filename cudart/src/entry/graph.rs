//! Entry points for graphs: explicit construction, instantiation, update, launch, debug output.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{call, CStrArg, In, Needs, Out};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {}
