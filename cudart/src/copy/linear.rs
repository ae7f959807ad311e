//! The deprecated linear copies to, from and between arrays: `count` bytes
//! from (x bytes, row y) on, wrapping to the next row of the array at its
//! end. A linear copy runs as 2D copies ([`plan_linear`]): the part of a
//! row up to its end, then as many whole rows as fit in one copy, and so on.

use super::elements::{descriptor, element_size, format_of};
use super::{Place, Region};
use crate::abi::cudaError_t;
use crate::driver::CUarray;
use std::ffi::c_void;

/// One operand of a linear copy.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Linear {
    Memory(*mut c_void),
    /// An array whose rows are `row` bytes wide, read or written from byte
    /// `x` of row `y` on.
    Array {
        array: CUarray,
        row: usize,
        x: usize,
        y: usize,
    },
}

impl Linear {
    /// An array operand, checking that `count` bytes fit from the offset
    /// on (a null or freed array is refused by [`descriptor`]).
    pub(crate) fn array(
        array: *const c_void,
        x: usize,
        y: usize,
        count: usize,
    ) -> Result<Self, cudaError_t> {
        let d = descriptor(CUarray::from(array.cast_mut()))?;
        let row = d
            .Width
            .checked_mul(element_size(format_of(&d))?)
            .ok_or(cudaError_t::cudaErrorInvalidValue)?;
        let rows = d.Height.max(1).saturating_mul(d.Depth.max(1));
        let capacity = row.saturating_mul(rows);
        let start = y.saturating_mul(row).saturating_add(x);
        if x >= row || start.saturating_add(count) > capacity {
            return Err(cudaError_t::cudaErrorInvalidValue);
        }
        Ok(Linear::Array {
            array: CUarray::from(array.cast_mut()),
            row,
            x,
            y,
        })
    }

    /// Bytes left in the current row (unbounded for plain memory).
    fn row_left(self) -> usize {
        match self {
            Linear::Memory(_) => usize::MAX,
            Linear::Array { row, x, .. } => row - x,
        }
    }

    /// Whether a run of whole rows of `row` bytes can start here.
    fn at_row_start(self, width: usize) -> bool {
        match self {
            Linear::Memory(_) => true,
            Linear::Array { row, x, .. } => x == 0 && row == width,
        }
    }

    /// The 2D region of this operand for rows of `width` bytes.
    fn region(self, width: usize) -> Region {
        match self {
            Linear::Memory(p) => Region::at(Place::memory(p, width, 0), 0, 0),
            Linear::Array { array, x, y, .. } => Region::at(Place::Array(array), x, y),
        }
    }

    /// The operand `n` bytes further on.
    fn advance(self, n: usize) -> Self {
        match self {
            Linear::Memory(p) => Linear::Memory(p.cast::<u8>().wrapping_add(n).cast()),
            Linear::Array { array, row, x, y } => {
                let at = x + n;
                Linear::Array {
                    array,
                    row,
                    x: at % row,
                    y: y + at / row,
                }
            }
        }
    }

    fn row_width(self) -> Option<usize> {
        match self {
            Linear::Memory(_) => None,
            Linear::Array { row, .. } => Some(row),
        }
    }
}

/// One 2D copy of a linear copy's plan: source, destination, width in
/// bytes, rows.
pub(crate) type Piece = (Region, Region, usize, usize);

/// Splits a linear copy of `count` bytes into 2D copies: the part of a row
/// up to its end, then as many whole rows as fit in one copy, and so on.
pub(crate) fn plan_linear(mut src: Linear, mut dst: Linear, count: usize) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut left = count;
    while left > 0 {
        let row = src.row_width().or(dst.row_width()).unwrap_or(left);
        let (width, height) = if left >= row && src.at_row_start(row) && dst.at_row_start(row) {
            (row, left / row)
        } else {
            (left.min(src.row_left()).min(dst.row_left()), 1)
        };
        pieces.push((src.region(width), dst.region(width), width, height));
        let n = width * height;
        src = src.advance(n);
        dst = dst.advance(n);
        left -= n;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x, y) of an operand, or the pointer's address for memory.
    fn at(r: &Region) -> (usize, usize) {
        match r.place {
            Place::Memory { ptr, .. } => (ptr as usize, 0),
            Place::Array(_) => (r.x, r.y),
        }
    }

    #[test]
    fn linear_copy_into_an_array_splits_at_rows() {
        // 30 floats from (15 floats, row 1) into rows of 19 floats.
        let dst = Linear::Array {
            array: CUarray::null(),
            row: 76,
            x: 60,
            y: 1,
        };
        let src = Linear::Memory(0x1000 as *mut c_void);
        let plan = plan_linear(src, dst, 120);
        let shape: Vec<_> = plan
            .iter()
            .map(|p| (at(&p.0), at(&p.1), p.2, p.3))
            .collect();
        assert_eq!(
            shape,
            vec![
                ((0x1000, 0), (60, 1), 16, 1),
                ((0x1010, 0), (0, 2), 76, 1),
                ((0x105c, 0), (0, 3), 28, 1),
            ]
        );
        // The whole-rows piece reads memory with a pitch of one row.
        match plan[1].0.place {
            Place::Memory { pitch, .. } => assert_eq!(pitch, 76),
            Place::Array(_) => unreachable!(),
        }
    }

    #[test]
    fn linear_copy_of_whole_rows_is_one_copy() {
        let src = Linear::Array {
            array: CUarray::null(),
            row: 64,
            x: 0,
            y: 2,
        };
        let plan = plan_linear(src, Linear::Memory(0x2000 as *mut c_void), 64 * 5 + 10);
        let shape: Vec<_> = plan
            .iter()
            .map(|p| (at(&p.0), at(&p.1), p.2, p.3))
            .collect();
        assert_eq!(
            shape,
            vec![((0, 2), (0x2000, 0), 64, 5), ((0, 7), (0x2140, 0), 10, 1)]
        );
    }

    #[test]
    fn linear_copy_between_arrays_breaks_where_either_row_ends() {
        let a = |x, y| Linear::Array {
            array: CUarray::null(),
            row: 76,
            x,
            y,
        };
        let plan = plan_linear(a(0, 5), a(12, 4), 100);
        let shape: Vec<_> = plan
            .iter()
            .map(|p| (at(&p.0), at(&p.1), p.2, p.3))
            .collect();
        assert_eq!(
            shape,
            vec![
                ((0, 5), (12, 4), 64, 1),
                ((64, 5), (0, 5), 12, 1),
                ((0, 6), (12, 5), 24, 1),
            ]
        );
    }

    #[test]
    fn linear_operands_advance_along_rows() {
        let a = Linear::Array {
            array: CUarray::null(),
            row: 16,
            x: 12,
            y: 1,
        };
        assert_eq!(a.row_left(), 4);
        match a.advance(4 + 16 * 2 + 3) {
            Linear::Array { x, y, .. } => assert_eq!((x, y), (3, 4)),
            Linear::Memory(_) => unreachable!(),
        }
    }
}
