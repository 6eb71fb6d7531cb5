//! Cache prefetching for the store's per-contact loops. rapier's pairs, manifolds, colliders and
//! bodies are scattered on the heap, and a loop over contacts is bound by waiting for them: the
//! loops ask for the data of the contacts a few iterations ahead.

/// How many contacts ahead the store's loops start loading rapier's data.
pub(super) const AHEAD: usize = 8;

/// Asks the CPU to load every cache line of `*p` (a hint: never faults, changes nothing, a
/// no-op off x86-64 and for a null pointer). rapier's pairs, manifolds and bodies are larger
/// than a line and not line-aligned.
#[inline(always)]
pub(super) fn prefetch<T>(p: *const T) {
    let size = std::mem::size_of::<T>();
    if size == 0 || p.is_null() {
        return;
    }
    // The lines of the object's bytes, whatever its alignment: one per 64 bytes from its
    // start, and the line of its last byte (a constant count: the loop unrolls).
    for k in 0..size.div_ceil(64) {
        prefetch_line((p as usize).wrapping_add(64 * k));
    }
    prefetch_line((p as usize).wrapping_add(size - 1));
}

/// Asks the CPU to load the lines of the first `len` bytes of `*p` (the part of a large object a
/// loop reads).
#[inline(always)]
pub(super) fn prefetch_lines<T>(p: *const T, len: usize) {
    let len = len.min(std::mem::size_of::<T>());
    if len == 0 || p.is_null() {
        return;
    }
    for k in 0..len.div_ceil(64) {
        prefetch_line((p as usize).wrapping_add(64 * k));
    }
    prefetch_line((p as usize).wrapping_add(len - 1));
}

/// [`prefetch`] for the first and the last element of a slice (rapier's solver contacts and
/// manifold points: mostly one to four per manifold).
#[inline(always)]
pub(super) fn prefetch_ends<T>(s: &[T]) {
    if let (Some(a), Some(b)) = (s.first(), s.last()) {
        prefetch(a);
        if s.len() > 1 {
            prefetch(b);
        }
    }
}

#[inline(always)]
fn prefetch_line(address: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache; it does not dereference the address and
    // cannot fault, whatever the address (SSE is part of the x86-64 baseline).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(address as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Where objects (bodies, colliders) kept by index were when last used: addresses to prefetch
/// from, never dereferenced (a set that grew since may have moved its objects; the hint is then
/// only wasted).
#[derive(Clone, Default)]
pub(super) struct AddressHints(Vec<usize>);

impl AddressHints {
    /// Records where object `i` is now.
    #[inline]
    pub(super) fn record<T>(&mut self, i: usize, p: *const T) {
        if i >= self.0.len() {
            self.0.resize(i + 1, 0);
        }
        self.0[i] = p as usize;
    }

    /// Where object `i` was when last recorded (null if never).
    #[inline]
    pub(super) fn get<T>(&self, i: usize) -> *const T {
        self.0.get(i).map_or(std::ptr::null(), |&a| a as *const T)
    }
}
