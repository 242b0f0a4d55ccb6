//! Reading input files within bounds: a variant or library file is text of at most
//! [`MAX_SOURCE_BYTES`], read without ever holding more (so `/dev/zero` or a huge file fails fast),
//! and a file that is not UTF-8 is refused with the place of its first bad byte.

use std::io::Read;
use std::path::Path;

/// The largest variant or library file, in bytes (docs/limits.md).
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// The most files one variant may include, counting libraries included by libraries.
pub const MAX_INCLUDED_FILES: usize = 256;

/// Reads at most `limit` bytes of `path`; a longer (or endless) file is an error naming the limit.
/// `what` names the kind of file in that error ("variant files").
pub fn read_limited(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    read_by_start(path, 0, |_| (limit, what))
}

/// Reads `path`, whose limit depends on how it starts: `limit` is asked once the first `peek`
/// bytes are read (fewer if the file is shorter), and gives the limit and the name of the kind.
pub fn read_by_start<'a>(path: &Path, peek: u64, limit: impl Fn(&[u8]) -> (u64, &'a str)) -> Result<Vec<u8>, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    (&mut file).take(peek).read_to_end(&mut bytes).map_err(cannot)?;
    let (limit, what) = limit(&bytes);
    file.take((limit + 1).saturating_sub(bytes.len() as u64)).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(format!("{} is larger than {limit} bytes, the limit for {what}", path.display()));
    }
    Ok(bytes)
}

/// The text of `bytes`, or an error giving the byte offset, line and column of the first byte
/// that is not UTF-8.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        // Columns count characters, as the diagnostics do; the text before `at` is valid UTF-8.
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        format!(
            "{} is not UTF-8 text: byte {at} (line {line}, column {column}) is 0x{:02x}; save the file as UTF-8",
            path.display(),
            bytes[at]
        )
    })
}

/// A variant or library file's text, within [`MAX_SOURCE_BYTES`].
pub fn read_source(path: &Path) -> Result<String, String> {
    decode(path, read_limited(path, MAX_SOURCE_BYTES, "variant and library files")?)
}
