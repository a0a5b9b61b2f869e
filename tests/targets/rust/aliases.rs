// Issue 30 §5 in Rust: a code's `aliases:` are exported as other names of its
// code (docs/rust.md "Aliases"): a `Code` constant equal to the code's variant,
// a constructor, an `is_..._error` helper and a details type alias. The
// crate is tests/cases/errno_native's, whose EAGAIN (11) has the alias
// EWOULDBLOCK as CPython's errno has (errno.EWOULDBLOCK == errno.EAGAIN).
// tests/targets/rust/test_rust.py copies this file into that case's crate only.

use TAXOGEN_RUST_CRATE as errno;

#[test]
fn aliases() {
    use errno::{Code, EagainDetails, EwouldblockDetails};
    assert_eq!(Code::Ewouldblock, Code::Eagain);
    assert_eq!(Code::Ewouldblock.as_str(), "11");

    let details: EwouldblockDetails = EagainDetails::default();
    let by_alias = errno::new_ewouldblock_error(details);
    assert_eq!(by_alias.code(), &Code::Eagain);
    assert!(by_alias.is_ewouldblock_error() && by_alias.is_eagain_error());

    let other = errno::new_enoent_error(Default::default());
    assert!(!other.is_ewouldblock_error());
    assert_eq!(
        by_alias.to_payload(),
        errno::new_eagain_error(Default::default()).to_payload()
    );
}
