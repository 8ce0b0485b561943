//! Exact integer edge weights: the [`MatchWeight`] arithmetic the solver needs, its
//! implementations for `i64`, `i128` and the multi-limb [`Wide`], and the hasher that interns
//! weights.

use std::cmp::Ordering;
use std::fmt::Debug;

/// A fast, deterministic hasher for interning weights (multiply-rotate per word, as in
/// rustc's FxHash): the default SipHash cost a noticeable share of a big bracket's time.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// A hash map keyed by weights, with [`WordHasher`].
pub type WeightMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<WordHasher>>;

/// An exact integer edge weight usable by the matcher.
///
/// The solver needs headroom: edge weights must stay below a quarter of the type's maximum
/// (dual variables reach twice the largest weight, and slacks add two duals).
pub trait MatchWeight: Copy + Ord + Debug {
    /// Zero.
    const ZERO: Self;
    /// `self + rhs` (must not overflow under the headroom rule).
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    fn sub(self, rhs: Self) -> Self;
    /// `2 · self`.
    fn double(self) -> Self;
    /// `⌊self / 2⌋`.
    fn half(self) -> Self;
    /// Whether the value is odd (used to keep dual parities aligned).
    fn is_odd(self) -> bool;
    /// One.
    fn one() -> Self;
    /// `⌊self / 2^shift⌋` if it fits in 62 bits (a cheap approximation used to skip exact
    /// arithmetic on edges that certainly do not matter), else `None`.
    fn approx(self, shift: u32) -> Option<i64>;
}

macro_rules! impl_match_weight_int {
    ($t:ty) => {
        impl MatchWeight for $t {
            const ZERO: Self = 0;
            fn add(self, rhs: Self) -> Self {
                self + rhs
            }
            fn sub(self, rhs: Self) -> Self {
                self - rhs
            }
            fn double(self) -> Self {
                self * 2
            }
            fn half(self) -> Self {
                self.div_euclid(2)
            }
            fn is_odd(self) -> bool {
                self.rem_euclid(2) == 1
            }
            fn one() -> Self {
                1
            }
            fn approx(self, shift: u32) -> Option<i64> {
                let v = self >> shift.min(<$t>::BITS - 1);
                let limit: $t = 1 << 61;
                (v < limit && v > -limit).then(|| v as i64)
            }
        }
    };
}
impl_match_weight_int!(i64);
impl_match_weight_int!(i128);

/// A fixed-width signed (two's complement) integer of `L` 64-bit limbs, little-endian, for
/// weights wider than 128 bits (the Dutch criteria need hundreds of bits in big events).
#[derive(Clone, Copy, Eq)]
pub struct Wide<const L: usize>(pub [u64; L]);

// By hand: the derived comparison of the limb array calls `memcmp`, which showed up in
// profiles of the solver's inner loop.
impl<const L: usize> PartialEq for Wide<L> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0;
        for i in 0..L {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const L: usize> std::hash::Hash for Wide<L> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for &limb in &self.0 {
            state.write_u64(limb);
        }
    }
}

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const fn zero() -> Self {
        Wide([0; L])
    }

    /// A non-negative value from a `u64`.
    pub fn from_u64(v: u64) -> Self {
        let mut limbs = [0; L];
        if L > 0 {
            limbs[0] = v;
        }
        Wide(limbs)
    }

    /// Number of value bits available (the top bit is the sign).
    pub const BITS: u32 = 64 * L as u32 - 1;

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Whether the value is negative.
    pub fn is_negative(&self) -> bool {
        L > 0 && self.0[L - 1] >> 63 == 1
    }

    /// Logical shift left by `bits` (bits shifted out are lost).
    pub fn shifted_left(self, bits: u32) -> Self {
        let mut out = [0u64; L];
        let limb_shift = (bits / 64) as usize;
        let bit_shift = bits % 64;
        for i in (0..L).rev() {
            if i < limb_shift {
                break;
            }
            let src = i - limb_shift;
            let mut v = self.0[src] << bit_shift;
            if bit_shift > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bit_shift);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// `self + v · 2^bit` (wrapping), without building the shifted value: the cheap way to
    /// assemble a weight from bit fields.
    #[inline]
    pub fn added_at(self, bit: u32, v: u64) -> Self {
        let mut out = self.0;
        let limb = (bit / 64) as usize;
        let shift = bit % 64;
        if v == 0 || limb >= L {
            return self;
        }
        let lo = v << shift;
        let hi = if shift == 0 { 0 } else { v >> (64 - shift) };
        let (sum, mut carry) = out[limb].overflowing_add(lo);
        out[limb] = sum;
        let mut i = limb + 1;
        let mut add = hi;
        while i < L && (carry || add != 0) {
            let (s1, c1) = out[i].overflowing_add(add);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            out[i] = s2;
            carry = c1 || c2;
            add = 0;
            i += 1;
        }
        Wide(out)
    }

    /// Bitwise or.
    pub fn or(self, rhs: Self) -> Self {
        let mut out = self.0;
        for (o, r) in out.iter_mut().zip(rhs.0.iter()) {
            *o |= r;
        }
        Wide(out)
    }

    /// Wrapping addition.
    #[inline(always)]
    pub fn wrapping_add(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let sum = u128::from(self.0[i]) + u128::from(rhs.0[i]) + carry;
            *o = sum as u64;
            carry = sum >> 64;
        }
        Wide(out)
    }

    /// Wrapping subtraction.
    #[inline(always)]
    pub fn wrapping_sub(self, rhs: Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let diff = u128::from(self.0[i])
                .wrapping_sub(u128::from(rhs.0[i]))
                .wrapping_sub(borrow);
            *o = diff as u64;
            borrow = (diff >> 64) & 1;
        }
        Wide(out)
    }
}

impl<const L: usize> Debug for Wide<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Wide(0x")?;
        for l in self.0.iter().rev() {
            write!(f, "{l:016x}")?;
        }
        write!(f, ")")
    }
}

impl<const L: usize> Ord for Wide<L> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

// `add` and `sub` inlined: for widths of four limbs and more the compiler left them as
// calls (the limbs passed through memory), a tenth of a 5,000-entrant round's profile.
impl<const L: usize> MatchWeight for Wide<L> {
    const ZERO: Self = Wide([0; L]);
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    fn double(self) -> Self {
        self.shifted_left(1)
    }
    fn half(self) -> Self {
        // Arithmetic shift right by one.
        let mut out = [0u64; L];
        let sign = if self.is_negative() { 1u64 << 63 } else { 0 };
        #[allow(clippy::needless_range_loop)]
        for i in 0..L {
            let hi = if i + 1 < L { self.0[i + 1] << 63 } else { sign };
            out[i] = (self.0[i] >> 1) | hi;
        }
        Wide(out)
    }
    fn is_odd(self) -> bool {
        L > 0 && self.0[0] & 1 == 1
    }
    fn one() -> Self {
        Wide::from_u64(1)
    }
    fn approx(self, shift: u32) -> Option<i64> {
        let i = (shift / 64) as usize;
        let bit = shift % 64;
        if i >= L {
            return None;
        }
        let mut lo = self.0[i] >> bit;
        if bit > 0 && i + 1 < L {
            lo |= self.0[i + 1] << (64 - bit);
        } else if bit > 0 && self.is_negative() {
            lo |= u64::MAX << (64 - bit);
        }
        // Everything above must be sign extension of a value within ±2^61.
        let sign = if self.is_negative() { u64::MAX } else { 0 };
        let v = lo as i64;
        if !(-(1i64 << 61)..(1i64 << 61)).contains(&v) {
            return None;
        }
        let top_start = i + 1 + usize::from(bit > 0);
        for j in top_start..L {
            if self.0[j] != sign {
                return None;
            }
        }
        if bit > 0 && i + 1 < L {
            let rest = self.0[i + 1] >> bit;
            let expect = sign >> bit;
            if rest != expect {
                return None;
            }
        }
        Some(v)
    }
}
