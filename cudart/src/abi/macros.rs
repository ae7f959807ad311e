//! The declaration macro of `abi/`.
//!
//! One `abi! { types {..} enums {..} consts {..} }` per file declares that
//! file's structs and unions, its integer-newtype enums and its `#define`
//! constants, and records each of them in the file's `LAYOUTS` and
//! `CONSTANTS` tables (joined in `abi/mod.rs`). The layout test in
//! `abi-tests/tests/layout.rs` compares every record with the C++ compiler's
//! view of NVIDIA's headers.
//!
//! ```text
//! types {
//!     /// docs
//!     pub struct cudaExtent { pub width: usize, pub height: usize, pub depth: usize }
//!     // a type C declares anonymously: say how C++ names it
//!     pub union cudaResourceDesc_res as "decltype(cudaResourceDesc::res)" { .. }
//!     // a field whose C member has another name
//!     pub struct cudaGraphNodeParams { .., pub u: cudaGraphNodeParams_u as "reserved1", .. }
//! }
//! enums {
//!     pub enum cudaMemcpyKind: u32 { cudaMemcpyHostToHost = 0, .. }
//! }
//! consts {
//!     pub const cudaHostAllocMapped: u32 = 0x02;
//! }
//! // optional: `#define`d other names of enumerators
//! aliases {
//!     pub const cudaStreamAttributePriority: cudaLaunchAttributeID =
//!         cudaLaunchAttributeID::cudaLaunchAttributePriority;
//! }
//! // optional: enumerators a later CUDA added to an enum declared in
//! // another file (recorded with this file's CUDA version)
//! extends {
//!     impl cudaDeviceAttr { cudaDevAttrCigStreamsSupported = 151 }
//! }
//! // optional: the value a later CUDA gives a constant declared in an
//! // earlier file (records only: Rust keeps the earlier value)
//! revalues {
//!     cudaDeviceAttr::cudaDevAttrMax = 161;
//!     ; const CUDART_VERSION = 13050;
//! }
//! ```
//!
//! A field that exists only from (or up to) some CUDA version carries
//! `since 13050` (or `until 13000`) before its `pub`: the layout test
//! checks it only against the headers of the versions that have it. A file
//! whose whole content is new in a later CUDA is declared with that version
//! in `abi/mod.rs`.
//!
//! Structs get `#[repr(C)]`, `Copy`, `Clone`, `AbiZero` and `Default`
//! (all fields zero); unions the same, zeroed through their FIRST field,
//! which must therefore span the whole union (checked at compile time).
//! Enums become `#[repr(transparent)]` newtypes with one associated
//! constant per enumerator.

macro_rules! abi {
    (
        types {
            $(
                $(#[$tm:meta])*
                pub $kw:tt $tname:ident $(as $tc:literal)? {
                    $( $(#[$fm:meta])* $(since $fs:literal)? $(until $fu:literal)?
                       pub $f:ident : $ft:ty $(as $fc:literal)? ),* $(,)?
                }
            )*
        }
        enums {
            $(
                $(#[$em:meta])*
                pub enum $ename:ident : $repr:ty $(as $ec:literal)? {
                    $( $(#[$vm:meta])* $v:ident = $val:expr ),* $(,)?
                }
            )*
        }
        consts {
            $( $(#[$cm:meta])* pub const $c:ident : $ct:ty = $cv:expr; )*
        }
        $(
            aliases {
                $( $(#[$am:meta])* pub const $a:ident : $at:ty = $av:expr; )*
            }
        )?
        $(
            extends {
                $(
                    impl $xname:ident {
                        $( $(#[$xm:meta])* $xv:ident = $xval:expr ),* $(,)?
                    }
                )*
            }
        )?
        $(
            revalues {
                $( $rscope:ident :: $rname:ident = $rval:expr; )*
                $( ; const $rc:ident = $rcval:expr; )*
            }
        )?
    ) => {
        $(
            $(#[$tm])*
            #[repr(C)]
            #[derive(Copy, Clone)]
            pub $kw $tname { $( $(#[$fm])* pub $f: $ft, )* }

            abi!(@zero $kw $tname { $($f: $ft),* });

            impl Default for $tname {
                fn default() -> Self {
                    <Self as $crate::abi::AbiZero>::ZERO
                }
            }
        )*

        $(
            $(#[$em])*
            #[repr(transparent)]
            #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
            pub struct $ename(pub $repr);

            impl $ename {
                /// How C++ names this enum (for the layout test).
                #[doc(hidden)]
                pub const C_TYPE: &'static str = abi!(@or $($ec)? stringify!($ename));
                $( $(#[$vm])* pub const $v: Self = Self($val); )*
            }

            impl $crate::abi::AbiZero for $ename {
                const ZERO: Self = Self(0);
            }
        )*

        $( $(#[$cm])* pub const $c: $ct = $cv as $ct; )*
        $( $( $(#[$am])* pub const $a: $at = $av; )* )?
        $( $(
            impl $xname {
                $( $(#[$xm])* pub const $xv: Self = Self($xval); )*
            }
        )* )?

        /// This file's types, as Rust lays them out (see `abi/macros.rs`).
        pub(super) static LAYOUTS: &[$crate::abi::TypeLayout] = &[
            $(
                $crate::abi::TypeLayout {
                    name: stringify!($tname),
                    c_type: abi!(@or $($tc)? stringify!($tname)),
                    kind: abi!(@kind $kw),
                    size: ::core::mem::size_of::<$tname>(),
                    align: ::core::mem::align_of::<$tname>(),
                    fields: &[ $(
                        $crate::abi::FieldLayout {
                            name: stringify!($f),
                            c_name: abi!(@or $($fc)? stringify!($f)),
                            offset: ::core::mem::offset_of!($tname, $f),
                            size: ::core::mem::size_of::<$ft>(),
                            since: abi!(@or $($fs)? 0),
                            until: abi!(@or $($fu)? u32::MAX),
                        },
                    )* ],
                },
            )*
            $(
                $crate::abi::TypeLayout {
                    name: stringify!($ename),
                    c_type: abi!(@or $($ec)? stringify!($ename)),
                    kind: $crate::abi::TypeKind::Enum,
                    size: ::core::mem::size_of::<$ename>(),
                    align: ::core::mem::align_of::<$ename>(),
                    fields: &[],
                },
            )*
        ];

        /// This file's enumerators and constants (see `abi/macros.rs`).
        pub(super) static CONSTANTS: &[$crate::abi::Constant] = &[
            $( $(
                $crate::abi::Constant {
                    scope: $ename::C_TYPE,
                    name: stringify!($v),
                    value: $ename::$v.0 as i64,
                },
            )* )*
            $(
                $crate::abi::Constant { scope: "", name: stringify!($c), value: ($cv) as i64 },
            )*
            $( $(
                $crate::abi::Constant { scope: "", name: stringify!($a), value: $a.0 as i64 },
            )* )?
            $( $( $(
                $crate::abi::Constant {
                    scope: $xname::C_TYPE,
                    name: stringify!($xv),
                    value: $xname::$xv.0 as i64,
                },
            )* )* )?
            $(
                $(
                    $crate::abi::Constant {
                        scope: $rscope::C_TYPE,
                        name: stringify!($rname),
                        value: ($rval) as i64,
                    },
                )*
                $(
                    $crate::abi::Constant { scope: "", name: stringify!($rc), value: ($rcval) as i64 },
                )*
            )?
        ];
    };

    (@or $given:literal $default:expr) => { $given };
    (@or $default:expr) => { $default };

    (@kind struct) => { $crate::abi::TypeKind::Struct };
    (@kind union) => { $crate::abi::TypeKind::Union };

    (@zero struct $name:ident { $($f:ident: $t:ty),* }) => {
        impl $crate::abi::AbiZero for $name {
            const ZERO: Self = Self { $( $f: <$t as $crate::abi::AbiZero>::ZERO ),* };
        }
    };
    (@zero union $name:ident { $f0:ident: $t0:ty $(, $f:ident: $t:ty)* }) => {
        impl $crate::abi::AbiZero for $name {
            const ZERO: Self = Self { $f0: <$t0 as $crate::abi::AbiZero>::ZERO };
        }
        const _: () = assert!(
            ::core::mem::size_of::<$t0>() == ::core::mem::size_of::<$name>(),
            "the first field of an abi! union must span the whole union"
        );
    };
}
