//! The records the `abi!` macro keeps about each declared type and
//! constant, and the all-zero value every ABI type has.

/// Struct, union or integer-newtype enum.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TypeKind {
    Struct,
    Union,
    Enum,
}

/// One field of a struct or union, as laid out by Rust.
#[derive(Copy, Clone, Debug)]
pub struct FieldLayout {
    /// The Rust field name.
    pub name: &'static str,
    /// The member name in C (the same unless the declaration says otherwise).
    pub c_name: &'static str,
    /// `offset_of!` of the field.
    pub offset: usize,
    /// `size_of` of the field's type.
    pub size: usize,
    /// The first CUDA version (`CUDART_VERSION`) whose headers have this
    /// member (0: every one).
    pub since: u32,
    /// The last CUDA version whose headers have this member as declared
    /// (`u32::MAX`: every one since).
    pub until: u32,
}

impl FieldLayout {
    /// Whether the headers of CUDA `version` (e.g. 13050) have this member.
    pub fn in_version(&self, version: u32) -> bool {
        self.since <= version && version <= self.until
    }
}

/// One declared type, as laid out by Rust.
#[derive(Copy, Clone, Debug)]
pub struct TypeLayout {
    /// The Rust type name (NVIDIA's C identifier, or `Parent_member` for
    /// a type C declares anonymously).
    pub name: &'static str,
    /// How C++ spells the type (`decltype(Parent::member)` for anonymous
    /// member types); empty for an anonymous union that has no member name
    /// in C (its fields are then checked through the parent's field).
    pub c_type: &'static str,
    pub kind: TypeKind,
    pub size: usize,
    pub align: usize,
    pub fields: &'static [FieldLayout],
}

/// One enumerator or `#define` constant.
#[derive(Copy, Clone, Debug)]
pub struct Constant {
    /// The enum it belongs to, as C++ names it (empty for a `#define`);
    /// the test spells enumerators `scope::name`, which also proves that
    /// the enumerator belongs to that enum.
    pub scope: &'static str,
    /// NVIDIA's identifier.
    pub name: &'static str,
    pub value: i64,
}

/// The all-zero value of an ABI type (what C code gets from `= {0}` or
/// `memset(&x, 0, sizeof x)`), built without `unsafe`.
pub trait AbiZero: Sized {
    const ZERO: Self;
    fn zeroed() -> Self {
        Self::ZERO
    }
}

macro_rules! zero_int {
    ($($t:ty),*) => { $( impl AbiZero for $t { const ZERO: Self = 0; } )* };
}
zero_int!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);

impl AbiZero for f32 {
    const ZERO: Self = 0.0;
}
impl<T> AbiZero for *mut T {
    const ZERO: Self = core::ptr::null_mut();
}
impl<T> AbiZero for *const T {
    const ZERO: Self = core::ptr::null();
}
impl<T> AbiZero for Option<T> {
    const ZERO: Self = None;
}
impl<T: AbiZero + Copy, const N: usize> AbiZero for [T; N] {
    const ZERO: Self = [T::ZERO; N];
}

impl Constant {
    /// How C++ names the constant: `Enum::enumerator` or the plain name.
    pub fn c_name(&self) -> String {
        if self.scope.is_empty() {
            self.name.to_string()
        } else {
            format!("{}::{}", self.scope, self.name)
        }
    }
}
