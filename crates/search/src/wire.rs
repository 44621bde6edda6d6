//! How a game's states and codes cross between the processes of a distributed search: a
//! fixed number of bytes each, written and read field by field (the processes may run on
//! different machines; only the binary is the same).

/// A value as a fixed number of bytes.
pub trait Wire: Sized {
    /// Bytes of every value's encoding.
    const BYTES: usize;
    /// Appends the value's `BYTES` bytes to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// The value `put` wrote as `bytes` (exactly `BYTES` of them).
    fn take(bytes: &[u8]) -> Self;
}

/// Reads the values `put` wrote one after the other.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }
    /// The next value.
    #[inline]
    pub fn read<T: Wire>(&mut self) -> T {
        let (value, rest) = self.bytes.split_at(T::BYTES);
        self.bytes = rest;
        T::take(value)
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

macro_rules! wire_int {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn take(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("the encoding's size"))
            }
        }
    )*};
}
wire_int!(u8, i8, u16, i16, u32, u64, i64);

impl Wire for bool {
    const BYTES: usize = 1;
    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    #[inline]
    fn take(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

impl<T: Wire + Copy + Default, const N: usize> Wire for [T; N] {
    const BYTES: usize = T::BYTES * N;
    #[inline]
    fn put(&self, out: &mut Vec<u8>) {
        for v in self {
            v.put(out);
        }
    }
    #[inline]
    fn take(bytes: &[u8]) -> Self {
        let mut values = [T::default(); N];
        for (v, b) in values.iter_mut().zip(bytes.chunks_exact(T::BYTES)) {
            *v = T::take(b);
        }
        values
    }
}

/// Round trips a value through its encoding, checking its size: what the games' tests hold
/// each of their `Wire` implementations to (public for them, which build against this crate
/// without its `cfg(test)`).
pub fn round_trip<T: Wire>(value: &T) -> T {
    let mut out = Vec::new();
    value.put(&mut out);
    assert_eq!(out.len(), T::BYTES);
    T::take(&out)
}

/// The encoding's size of a field, named by a function that reaches it (for
/// [`wire_fields`](crate::wire_fields)).
pub const fn field_bytes<T, F: Wire>(_field: fn(&T) -> &F) -> usize {
    F::BYTES
}

/// `Wire` for a struct whose every field is `Wire`: the fields one after the other, in the
/// order named (every field must be named: the struct literal of `take` checks it).
#[macro_export]
macro_rules! wire_fields {
    ($t:ident { $($field:ident),+ $(,)? }) => {
        impl $crate::Wire for $t {
            const BYTES: usize =
                0 $(+ $crate::wire::field_bytes(|v: &$t| &v.$field))+;
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                $($crate::Wire::put(&self.$field, out);)+
            }
            #[inline]
            fn take(bytes: &[u8]) -> $t {
                let mut r = $crate::wire::Reader::new(bytes);
                $t { $($field: r.read()),+ }
            }
        }
    };
}
