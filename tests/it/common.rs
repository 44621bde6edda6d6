//! Helpers shared by the integration tests that run the binaries: where the project's files are,
//! scratch directories for hand-made records, running a binary to completion, and opening a
//! page in headless Chromium and reading its DOM, and reading a viewer page's film ([`film`]).

pub mod film;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The crate root (where `inputs/` lives).
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The contest sequence file shipped with the project.
pub fn tencent_input() -> PathBuf {
    manifest_dir().join("inputs/tencent.txt")
}

/// The 2021 public record for the contest sequence (tests/fixtures/README.md names its source).
pub fn public_record_path() -> PathBuf {
    manifest_dir().join("tests/fixtures/public-record-1395326.txt")
}

/// The public record's text.
pub fn public_record() -> String {
    std::fs::read_to_string(public_record_path())
        .expect("read tests/fixtures/public-record-1395326.txt")
}

/// The public record's first `pieces` pieces, in its comma form.
pub fn public_record_pieces(pieces: usize) -> String {
    let text = public_record();
    let tokens: Vec<&str> = text.trim().split(',').map(str::trim).collect();
    let starts = (0..tokens.len()).filter(|&i| tokens[i] == "N");
    let end = starts.chain([tokens.len()]).nth(pieces).unwrap();
    tokens[..end].join(",")
}

/// A scratch directory under the system temp dir, unique per process and per call, removed on
/// drop.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tetris-opt-test-{}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            label
        ));
        std::fs::create_dir_all(&dir).expect("create a scratch directory");
        Scratch { dir }
    }

    /// Writes `contents` to `name` in the scratch directory and returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, contents).expect("write a scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a finished run of a binary left behind.
#[derive(Debug)]
pub struct Run {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line printed on stdout ("" when nothing was).
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }

    /// The score of the `Score = N` line `solve` ends its summary (on stderr) with.
    pub fn solve_score(&self) -> u64 {
        let line = self.stderr.lines().last().unwrap_or("");
        line.strip_prefix("Score = ")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score line in {self:#?}"))
    }

    /// Asserts the run did not panic (a panic is never an acceptable answer to bad input).
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked"),
            "the binary panicked:\n{}",
            self.stderr
        );
    }
}

/// Runs the binary at `exe` with `args` in the crate root and waits for it.
pub fn run(exe: &str, args: &[&dyn AsRef<OsStr>]) -> Run {
    let output = Command::new(exe)
        .args(args.iter().map(|a| a.as_ref()))
        .current_dir(manifest_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs the binary at `path` with plain string arguments, as [`run`] does; it must not panic.
pub fn exe(path: &str, args: &[&str]) -> Run {
    let args: Vec<&dyn AsRef<OsStr>> = args.iter().map(|a| a as _).collect();
    let out = run(path, &args);
    out.assert_no_panic();
    out
}

/// The piece letters of a sequence file, comment lines left out.
pub fn letters(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The contest's rules, strict (the default checker).
pub fn strict() -> tetris_opt::games::contest::rules::Rules {
    tetris_opt::games::contest::rules::Rules::default()
}

/// The contest's rules as its web replay plays them (`check --judge`).
pub fn judge() -> tetris_opt::games::contest::rules::Rules {
    tetris_opt::games::contest::rules::Rules::judge()
}

/// How long one headless Chromium run may take.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);

/// The browser (`CHROMIUM`, or `chromium` / `chromium-browser` on PATH), or `None` after saying
/// that `what` is skipped when it is absent and this is not CI (`CI=true` makes it a failure).
pub fn chromium(what: &str) -> Option<PathBuf> {
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but Chromium is missing: install Debian's `chromium` package (or set CHROMIUM)"
        );
        // Straight to stderr, past the test harness's capture, so a skip is never silent.
        let _ = writeln!(
            std::io::stderr(),
            "{what} skipped: no chromium on PATH (apt-get install chromium, or set CHROMIUM)"
        );
    }
    found
}

/// The DOM of `page` opened at `fragment` (e.g. `#piece=3`), after its script ran.
pub fn dump_dom(browser: &Path, page: &Path, fragment: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "chromium-profile-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let url = format!("file://{}{fragment}", page.display());
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    // The DOM can be far larger than a pipe holds, so it is read while the browser runs.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        stdout.read_to_string(&mut dom).map(|_| dom)
    });
    let status = wait_or_kill(&mut child, BROWSER_TIMEOUT, &url);
    let dom = reader.join().unwrap().expect("chromium's output is text");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        status.success() && dom.contains("</html>"),
        "chromium failed on {url}: {status}"
    );
    dom
}

/// Waits for chromium to finish with `url`, killing it and failing the test after `timeout`.
pub fn wait_or_kill(
    child: &mut std::process::Child,
    timeout: Duration,
    url: &str,
) -> std::process::ExitStatus {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took over {timeout:?} on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The opening tag of the element with id `id`.
pub fn opening_tag<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let start = dom[..at].rfind('<').unwrap();
    let end = at + dom[at..].find('>').unwrap();
    &dom[start..=end]
}

/// The text of the element with id `id`, up to its first child element.
pub fn element_text(dom: &str, id: &str) -> String {
    let tag = opening_tag(dom, id);
    let start = dom.find(tag).unwrap() + tag.len();
    let end = start + dom[start..].find('<').unwrap();
    unescape(&dom[start..end])
}

/// The value of attribute `name` in an opening tag.
pub fn attribute(tag: &str, name: &str) -> String {
    let key = format!("{name}=\"");
    let start = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    let end = start + tag[start..].find('"').unwrap();
    unescape(&tag[start..end])
}

/// Text as the DOM dump escapes it, read back.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}
