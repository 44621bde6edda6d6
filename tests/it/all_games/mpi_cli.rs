//! `solve --distributed` run under `mpirun` as a user runs it, with a `solve` built with
//! `--features mpi`: the record is byte for byte the default build's one-process record for any
//! number of processes and threads, and `check` scores it as process 0 (alone) reports; an input
//! error is printed once and exits with the one-process exit code; and a process that dies ends
//! the job instead of hanging it. Without `mpirun` the tests say `skipped` on stderr and pass,
//! except under `CI=true`, where they fail.

use crate::common::{manifest_dir, run, tencent_input, Run, Scratch};
use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The default build (no MPI): `--distributed` runs as one process.
const SOLVE: &str = env!("CARGO_BIN_EXE_solve");
const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// How long one `mpirun` may take before it counts as hung (a job takes seconds on an idle
/// machine; the margin is for a loaded one, where the test suite runs beside other work).
const MPIRUN_TIMEOUT: Duration = Duration::from_secs(600);

/// The exit code of a usage error such as an unreadable file (`EXIT_USAGE` of the binaries).
const EXIT_USAGE: i32 = 2;

/// `mpirun` and the `solve` built with `--features mpi`.
struct Mpi {
    solve: PathBuf,
    as_root: bool,
}

/// The MPI setup, or `None` after saying that `what` is skipped when `mpirun` is absent and this
/// is not CI (`CI=true` makes it a failure). The MPI `solve` is built once per test process.
fn mpi(what: &str) -> Option<&'static Mpi> {
    let found = Command::new("mpirun")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but mpirun is missing: install Debian's openmpi-bin libopenmpi-dev \
             libclang-dev"
        );
        // Straight to stderr, past the test harness's capture, so a skip is never silent.
        let _ = writeln!(
            std::io::stderr(),
            "{what} skipped: no mpirun on PATH (install openmpi-bin libopenmpi-dev libclang-dev)"
        );
        return None;
    }
    static BUILT: OnceLock<Result<Mpi, String>> = OnceLock::new();
    match BUILT.get_or_init(build) {
        Ok(mpi) => Some(mpi),
        Err(e) => panic!("{e}"),
    }
}

/// Builds `solve` with `--features mpi`. Its own target directory leaves the default build's
/// binaries, which the other tests run, as they are (and is not locked by the outer cargo).
fn build() -> Result<Mpi, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let target = manifest_dir().join("target/mpi");
    let output = Command::new(&cargo)
        .args(["build", "--release", "--features", "mpi", "--bin", "solve"])
        .arg("--target-dir")
        .arg(&target)
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start {}: {e}", cargo.to_string_lossy()))?;
    if !output.status.success() {
        return Err(format!(
            "cargo build --release --features mpi failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    // Open MPI refuses to run as root unless told it may.
    let uid = Command::new("id").arg("-u").output().ok();
    let as_root = uid.is_some_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        || std::env::var("USER").as_deref() == Ok("root");
    Ok(Mpi {
        solve: target.join("release/solve"),
        as_root,
    })
}

impl Mpi {
    /// Runs `program args` as `np` processes under `mpirun` and waits for the job, failing the
    /// test if it takes over `MPIRUN_TIMEOUT`.
    fn run(&self, np: usize, program: &dyn AsRef<OsStr>, args: &[&dyn AsRef<OsStr>]) -> Run {
        self.run_with(np, &[], program, args)
    }

    /// [`Mpi::run`] with the variables `env` set in every process.
    fn run_with(
        &self,
        np: usize,
        env: &[(&str, &str)],
        program: &dyn AsRef<OsStr>,
        args: &[&dyn AsRef<OsStr>],
    ) -> Run {
        let mut command = Command::new("mpirun");
        // The machine may have fewer cores than processes.
        command.arg("--oversubscribe");
        if self.as_root {
            command.arg("--allow-run-as-root");
        }
        for (name, value) in env {
            command.arg("-x").arg(format!("{name}={value}"));
        }
        command
            .arg("-np")
            .arg(np.to_string())
            .arg(program)
            .args(args.iter().map(|a| a.as_ref()))
            .current_dir(manifest_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let described = format!("{command:?}");
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {described}: {e}"));
        // Read while the job runs: its output may be more than a pipe holds.
        let read = |mut from: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                from.read_to_end(&mut bytes).map(|_| bytes)
            })
        };
        let stdout = read(Box::new(child.stdout.take().unwrap()));
        let stderr = read(Box::new(child.stderr.take().unwrap()));
        let deadline = Instant::now() + MPIRUN_TIMEOUT;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                // SIGTERM lets mpirun take its processes down with it; SIGKILL if it will not go.
                let _ = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status();
                let grace = Instant::now() + Duration::from_secs(10);
                while child.try_wait().unwrap().is_none() && Instant::now() < grace {
                    std::thread::sleep(Duration::from_millis(100));
                }
                let _ = child.kill();
                let _ = child.wait();
                panic!("{described} took over {MPIRUN_TIMEOUT:?}: the job hung");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let text = |reader: std::thread::JoinHandle<std::io::Result<Vec<u8>>>| {
            String::from_utf8_lossy(&reader.join().unwrap().expect("read mpirun's output"))
                .into_owned()
        };
        Run {
            code: status.code(),
            stdout: text(stdout),
            stderr: text(stderr),
        }
    }
}

/// The score of the one `Score = N` line on stderr: only process 0 prints a summary.
fn only_score(r: &Run) -> u64 {
    let scores: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("Score ="))
        .collect();
    assert_eq!(scores.len(), 1, "one score line expected: {r:#?}");
    scores[0]
        .strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a score line: {:?}", scores[0]))
}

/// What `check` scores `record` on the contest sequence.
fn check_score(scratch: &Scratch, record: &str) -> u64 {
    let path = scratch.file("record.txt", record);
    let r = run(CHECK, &[&tencent_input(), &path]);
    assert_eq!(r.code, Some(0), "{r:#?}");
    r.last_line()
        .strip_prefix("Score = ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("check prints a score: {r:#?}"))
}

#[test]
fn same_record_for_any_number_of_processes_and_threads() {
    let Some(mpi) = mpi("same_record_for_any_number_of_processes_and_threads") else {
        return;
    };
    let scratch = Scratch::new("mpi-record");
    let input = tencent_input();
    // The second beam is smaller than the number of processes: some hold no state at all.
    for (pieces, width) in [("300", "3000"), ("300", "64"), ("200", "3")] {
        let search: [&dyn AsRef<OsStr>; 6] = [
            &"--distributed",
            &input,
            &"--pieces",
            &pieces,
            &"--beam-width",
            &width,
        ];
        let solo = run(SOLVE, &search);
        solo.assert_no_panic();
        assert_eq!(solo.code, Some(0), "{solo:#?}");
        assert!(solo.stdout.starts_with("N,"), "{solo:#?}");
        let score = only_score(&solo);
        assert_eq!(
            check_score(&scratch, &solo.stdout),
            score,
            "check disagrees with the one-process solve (--pieces {pieces} --beam-width {width})"
        );
        for (np, threads) in [(1, "1"), (2, "1"), (3, "1"), (4, "1"), (2, "2")] {
            let case = format!(
                "mpirun -np {np}, --threads {threads}, --pieces {pieces} --beam-width {width}"
            );
            let r = mpi.run(
                np,
                &mpi.solve,
                &[&search[..], &[&"--threads", &threads]].concat(),
            );
            r.assert_no_panic();
            assert_eq!(r.code, Some(0), "{case}: {r:#?}");
            if r.stdout != solo.stdout {
                let at = r
                    .stdout
                    .bytes()
                    .zip(solo.stdout.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(r.stdout.len().min(solo.stdout.len()));
                panic!(
                    "{case}: the record differs from the one-process record at byte {at} \
                     ({} bytes against {})",
                    r.stdout.len(),
                    solo.stdout.len()
                );
            }
            assert_eq!(only_score(&r), score, "{case}: {r:#?}");
            // The level MPI provides was asked for and checked before the search (FUNNELED
            // or more), and the summary names it; the search without MPI names none.
            let levels = ["FUNNELED", "SERIALIZED", "MULTIPLE"].map(|l| format!("MPI_THREAD_{l}"));
            assert!(
                levels
                    .iter()
                    .any(|l| r.stderr.contains(&format!("(MPI provides {l})"))),
                "{case}: {r:#?}"
            );
            assert!(!solo.stderr.contains("MPI provides"), "{solo:#?}");
        }
    }
}

#[test]
fn an_input_error_is_printed_once_with_the_one_process_exit_code() {
    let Some(mpi) = mpi("an_input_error_is_printed_once_with_the_one_process_exit_code") else {
        return;
    };
    let scratch = Scratch::new("mpi-missing");
    let missing = scratch.dir.join("missing.txt");
    let input = tencent_input();
    // An unreadable file, and arguments refused before any file is read.
    let cases: [Vec<&dyn AsRef<OsStr>>; 3] = [
        vec![&"--distributed", &missing],
        vec![&"--distributed", &input, &"--start-level", &"5"],
        vec![&"--distributed", &"--game", &"nes", &"--beam-width", &"0"],
    ];
    for args in cases {
        let solo = run(SOLVE, &args);
        solo.assert_no_panic();
        assert_eq!(solo.code, Some(EXIT_USAGE), "{solo:#?}");
        assert_eq!(solo.stderr.lines().count(), 1, "{solo:#?}");
        let r = mpi.run(3, &mpi.solve, &args);
        r.assert_no_panic();
        assert_eq!(r.code, solo.code, "{r:#?}");
        assert!(r.stdout.is_empty(), "no record on failure: {r:#?}");
        // Process 0's line is the one-process line; the others print none (mpirun adds its
        // own report of the exit code, which is not an `error:` line).
        let errors: Vec<&str> = r.stderr.lines().filter(|l| l.contains("error:")).collect();
        assert_eq!(errors, solo.stderr.lines().collect::<Vec<_>>(), "{r:#?}");
    }
}

#[test]
fn a_process_that_dies_ends_the_job() {
    let Some(mpi) = mpi("a_process_that_dies_ends_the_job") else {
        return;
    };
    let scratch = Scratch::new("mpi-dies");
    let input = tencent_input();
    // Process 1 is killed before it starts MPI, or a second into a search of several seconds,
    // while process 0 waits on it in an exchange. The shell's `$0` is the MPI `solve`, which
    // `exec` puts in the shell's place (`$$`).
    let deaths = [
        (
            "before MPI starts",
            r#"if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then kill -9 $$; fi; exec "$0" "$@""#,
        ),
        (
            "during the search",
            r#"if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then (sleep 1; kill -9 $$) & fi; exec "$0" "$@""#,
        ),
    ];
    for (when, script) in deaths {
        let r = mpi.run(
            2,
            &"sh",
            &[
                &"-c",
                &script,
                &mpi.solve,
                &"--distributed",
                &input,
                &"--pieces",
                &"2000",
                &"--beam-width",
                &"2000",
            ],
        );
        assert!(
            r.code.is_some_and(|c| c != 0),
            "process 1 killed {when}: {r:#?}"
        );
        // mpirun ends process 0 with SIGTERM: it writes out the pieces decided so far (whole,
        // each checked) and says so, or nothing where none were decided.
        if !r.stdout.is_empty() {
            assert!(
                r.stderr.contains("interrupted: the record's first "),
                "a record from a broken job says what it is: {r:#?}"
            );
            check_score(&scratch, &r.stdout);
        }
        // Open MPI names the signal and the rank, or (as often) only a process's non-zero exit.
        assert!(
            ["signal", "rank 1", "non-zero exit"]
                .iter()
                .any(|s| r.stderr.contains(s)),
            "mpirun does not report the failure (process 1 killed {when}): {r:#?}"
        );
    }
}

/// Under `mpirun -np 2`, a run interrupted (as SIGTERM would) after 7, 50 and 200 pieces writes
/// its checkpoint, one file per process, and the command it prints, run as 2 processes again,
/// goes on to the uninterrupted record byte for byte; as 3 processes it is refused, naming
/// the job it needs.
#[test]
fn an_interrupted_distributed_run_resumes_to_the_same_record() {
    let Some(mpi) = mpi("an_interrupted_distributed_run_resumes_to_the_same_record") else {
        return;
    };
    let scratch = Scratch::new("mpi-resume");
    let input = tencent_input();
    let checkpoint = scratch.dir.join("run.checkpoint");
    let search: [&dyn AsRef<OsStr>; 7] = [
        &"--distributed",
        &input,
        &"--pieces",
        &"400",
        &"--beam-width",
        &"100",
        &"--quiet",
    ];
    let whole = run(SOLVE, &search);
    assert_eq!(whole.code, Some(0), "{whole:#?}");
    let saving: [&dyn AsRef<OsStr>; 2] = [&"--checkpoint", &checkpoint];
    for after in ["7", "50", "200"] {
        let env = [("TETRIS_OPT_INTERRUPT_AFTER", after)];
        let cut = mpi.run_with(2, &env, &mpi.solve, &[&search[..], &saving].concat());
        cut.assert_no_panic();
        assert_eq!(cut.code, Some(143), "after {after}: {cut:#?}");
        assert!(
            whole.stdout.starts_with(cut.stdout.trim_end()),
            "after {after}"
        );
        assert!(
            cut.stderr
                .contains("run as 2 processes again (mpirun -np 2)"),
            "after {after}: {cut:#?}"
        );
        // Process 0's file, and process 1's of the same pieces, alone.
        let names: Vec<String> = std::fs::read_dir(&scratch.dir)
            .expect("the scratch folder")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| n.starts_with("run.checkpoint"))
            .collect();
        assert_eq!(names.len(), 2, "after {after}: {names:?}");
        let resume: [&dyn AsRef<OsStr>; 2] = [&"--resume", &checkpoint];
        let resumed = mpi.run(2, &mpi.solve, &[&resume[..], &search, &saving].concat());
        resumed.assert_no_panic();
        assert_eq!(resumed.code, Some(0), "after {after}: {resumed:#?}");
        assert!(
            resumed.stdout == whole.stdout,
            "after {after}: the record differs"
        );
        let three = mpi.run(3, &mpi.solve, &[&resume[..], &search].concat());
        assert_eq!(three.code, Some(EXIT_USAGE), "{three:#?}");
        assert!(
            three
                .stderr
                .contains("written by a search over 2 processes"),
            "{three:#?}"
        );
    }
}
