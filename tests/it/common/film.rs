//! Reading a viewer page's film without a browser: its JSON, a column of numbers as the page's
//! script decodes it, the "Locked at" line the page shows for a piece, and the lines of the
//! fill chart.

use serde_json::Value;

/// The film a page embeds.
pub fn film_of(html: &str) -> Value {
    let start = html.find("id=\"film\">").expect("the page has a film") + "id=\"film\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("the film is JSON")
}

/// The numbers of a code: five bits a letter, lowest first, the sixth saying another follows.
fn unsigned(film: &Value, code: &str) -> Vec<u64> {
    let alphabet = film["alphabet"].as_str().unwrap();
    let (mut out, mut value, mut shift) = (Vec::new(), 0u64, 0);
    for c in code.chars() {
        let digit = alphabet.find(c).expect("a letter of the alphabet") as u64;
        value |= (digit & 31) << shift;
        if digit & 32 != 0 {
            shift += 5;
            continue;
        }
        out.push(value);
        (value, shift) = (0, 0);
    }
    out
}

/// A column of the film (`x`, `score`, ...; a game's field by name), one number a piece.
pub fn column(film: &Value, name: &str) -> Vec<i64> {
    let code = film[name].as_str().map(str::to_string).or_else(|| {
        let fields = film["fields"].as_array()?;
        let field = fields.iter().find(|f| f[0] == name)?;
        Some(field[1].as_str()?.to_string())
    });
    let code = code.unwrap_or_else(|| panic!("the film has no {name}"));
    let pieces = film["pieces"].as_u64().unwrap() as usize;
    let mut at = 0i64;
    let mut out: Vec<i64> = unsigned(film, &code)
        .into_iter()
        .map(|z| {
            at += signed(z);
            at
        })
        .collect();
    out.resize(pieces, at);
    out
}

/// A zig-zagged number: 0, 1, 2, 3, ... as 0, -1, 1, -2, ...
fn signed(z: u64) -> i64 {
    if z % 2 == 1 {
        -((z as i64 + 1) / 2)
    } else {
        z as i64 / 2
    }
}

/// One lock of a fill chart's line: the cells on the board with the piece written, and the
/// rows it cleared.
pub type FillLock = (i64, u64);

/// The fill chart's lines, each its label and its locks, decoded as the page's script decodes
/// them (runs of locks that add a piece's 4 cells and clear nothing, each followed by one that
/// does otherwise); `None` where the page has no fill chart.
pub fn fill_lines(film: &Value) -> Option<Vec<(String, Vec<FillLock>)>> {
    let lines = film["fill_chart"]["lines"].as_array()?;
    let decode = |line: &Value| {
        let locks = line["locks"].as_u64().unwrap() as usize;
        let code = unsigned(film, line["code"].as_str().unwrap());
        let (mut out, mut expected) = (Vec::with_capacity(locks), 4);
        let mut lock = |symbol: u64, out: &mut Vec<FillLock>| {
            let (filled, rows) = (expected + signed(symbol / 5), symbol % 5);
            out.push((filled, rows));
            expected = filled - 10 * rows as i64 + 4;
        };
        let mut symbols = code.into_iter();
        while out.len() < locks {
            let run = symbols.next().unwrap_or((locks - out.len()) as u64);
            (0..run).for_each(|_| lock(0, &mut out));
            symbols.next().into_iter().for_each(|s| lock(s, &mut out));
        }
        (line["label"].as_str().unwrap().to_string(), out)
    };
    Some(lines.iter().map(decode).collect())
}

/// The "Locked at" line the page shows for piece `n` (1-based).
pub fn locked_at(film: &Value, n: usize) -> String {
    let mut line = film["locked_at"].as_str().unwrap().to_string();
    let mut names = vec!["x".to_string(), "y".to_string(), "state".to_string()];
    for field in film["fields"].as_array().unwrap() {
        names.push(field[0].as_str().unwrap().to_string());
    }
    for name in names {
        let value = column(film, &name)[n - 1];
        line = line.replace(&format!("{{{name}}}"), &value.to_string());
    }
    line
}

/// A piece's cells (`(column, row)`, rows down) as the viewer's `data-shapes` reads one back:
/// rows of its box top first, `#` a cell, joined by '/'.
pub fn shape_picture(cells: &[(i32, i32)]) -> String {
    let (left, top) = (
        cells.iter().map(|c| c.0).min().unwrap(),
        cells.iter().map(|c| c.1).min().unwrap(),
    );
    let (right, bottom) = (
        cells.iter().map(|c| c.0).max().unwrap(),
        cells.iter().map(|c| c.1).max().unwrap(),
    );
    let rows: Vec<String> = (top..=bottom)
        .map(|y| {
            (left..=right)
                .map(|x| if cells.contains(&(x, y)) { '#' } else { '.' })
                .collect()
        })
        .collect();
    rows.join("/")
}
