//! Where each value of a RON text starts: a tolerant skeleton parse.
//!
//! serde gives typed values but forgets where they came from, and RON's own
//! errors stop at the first problem. This pass reads the same text into a
//! tree of spans (structs, lists, named wrappers like `Some(..)` or
//! `Circle(..)`, leaves) so that the validator can name `line:column` for
//! every problem it finds, and a parse error can be given the field path it
//! happened in.
//!
//! It never fails and never panics: on text that is not RON it keeps what it
//! could read. Nesting deeper than [`MAX_DEPTH`] is not descended (serde's
//! recursion limit rejects such text anyway).

use std::fmt;

/// Deepest nesting the skeleton descends into; RON's own limit is 128.
pub(crate) const MAX_DEPTH: usize = 160;

/// A position in the text: line and column from 1, counted in characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
}

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A named field of a struct.
    Field(String),
    /// An element of a list.
    Index(usize),
    /// The x (0) or y (1) of an `(x, y)` pair.
    Component(usize),
}

/// A path from the top of the scene to a value, e.g. `bodies[2].shape.radius`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    /// This path extended by a field.
    pub fn field(&self, name: &str) -> FieldPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Field(name.to_string()));
        FieldPath(segs)
    }

    /// This path extended by a list index.
    pub fn index(&self, index: usize) -> FieldPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(index));
        FieldPath(segs)
    }

    /// This path extended by a vector component (0 = x, 1 = y).
    pub fn component(&self, component: usize) -> FieldPath {
        let mut segs = self.0.clone();
        segs.push(Seg::Component(component));
        FieldPath(segs)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Field(name) if i == 0 => write!(f, "{name}")?,
                Seg::Field(name) => write!(f, ".{name}")?,
                Seg::Index(index) => write!(f, "[{index}]")?,
                Seg::Component(0) => write!(f, ".x")?,
                Seg::Component(_) => write!(f, ".y")?,
            }
        }
        Ok(())
    }
}

/// A value's span and what is inside it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub start: Pos,
    pub end: Pos,
    pub content: Content,
}

/// What a [`Node`] holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Content {
    /// A number, string, char or bare identifier.
    Leaf,
    /// A list `[..]` or a tuple `(..)`.
    Seq(Vec<Node>),
    /// A struct `(name: value, ..)` or a map `{key: value, ..}`; each field
    /// keeps the position of its name.
    Fields(Vec<(String, Pos, Node)>),
    /// An identifier followed by a group: `Some(..)`, `Circle(..)`, `Scene(..)`.
    Named(String, Box<Node>),
}

impl Node {
    /// Reads the skeleton of `text`. Always returns a node (possibly empty).
    pub fn parse(text: &str) -> Node {
        let mut cursor = Cursor::new(text);
        cursor.skip_attributes();
        let start = cursor.pos();
        cursor.value(0).unwrap_or(Node {
            start,
            end: start,
            content: Content::Leaf,
        })
    }

    /// The position of the value at `path`, or of the deepest enclosing value
    /// found when part of the path is absent (e.g. a defaulted field).
    pub fn locate(&self, path: &FieldPath) -> Pos {
        let mut node = self;
        for seg in &path.0 {
            match node.child(seg) {
                Some(child) => node = child,
                None => break,
            }
        }
        node.start
    }

    /// The position of character `index` inside the string at `path`
    /// (exact when the string has no escapes before it).
    pub fn locate_in_string(&self, path: &FieldPath, index: usize) -> Pos {
        let start = self.locate(path);
        Pos {
            line: start.line,
            column: start.column + 1 + index,
        }
    }

    /// The path of the innermost value whose span holds `pos`.
    pub fn path_at(&self, pos: Pos) -> FieldPath {
        let mut path = FieldPath::default();
        let mut node = self;
        'descend: loop {
            let inner = node.unwrapped();
            match &inner.content {
                Content::Fields(fields) => {
                    for (name, name_pos, child) in fields {
                        if *name_pos <= pos && pos <= child.end {
                            path.0.push(Seg::Field(name.clone()));
                            node = child;
                            continue 'descend;
                        }
                    }
                }
                Content::Seq(items) => {
                    for (i, child) in items.iter().enumerate() {
                        if child.start <= pos && pos <= child.end {
                            path.0.push(Seg::Index(i));
                            node = child;
                            continue 'descend;
                        }
                    }
                }
                Content::Leaf | Content::Named(..) => {}
            }
            return path;
        }
    }

    /// Looks through named wrappers: `Circle(radius: ..)` → its fields,
    /// `Some(x)` and `Target("ship")` → their one value.
    fn unwrapped(&self) -> &Node {
        let mut node = self;
        while let Content::Named(_, inner) = &node.content {
            node = match &inner.content {
                Content::Seq(items) if items.len() == 1 => &items[0],
                _ => inner,
            };
        }
        node
    }

    fn child(&self, seg: &Seg) -> Option<&Node> {
        let node = self.unwrapped();
        match (seg, &node.content) {
            (Seg::Field(name), Content::Fields(fields)) => fields
                .iter()
                .find(|(field, _, _)| field == name)
                .map(|(_, _, child)| child),
            (Seg::Index(i) | Seg::Component(i), Content::Seq(items)) => items.get(*i),
            _ => None,
        }
    }
}

/// A character cursor that tracks line and column.
#[derive(Clone)]
struct Cursor {
    chars: Vec<char>,
    index: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn new(text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            index: 0,
            line: 1,
            column: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.index).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.index + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.index += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips whitespace, `// line` and nested `/* block */` comments.
    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut depth = 1usize;
                    while depth > 0 {
                        match (self.peek(), self.peek_at(1)) {
                            (None, _) => return,
                            (Some('*'), Some('/')) => {
                                self.bump();
                                self.bump();
                                depth -= 1;
                            }
                            (Some('/'), Some('*')) => {
                                self.bump();
                                self.bump();
                                depth += 1;
                            }
                            _ => {
                                self.bump();
                            }
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Skips `#![enable(..)]` attributes at the top of the file.
    fn skip_attributes(&mut self) {
        loop {
            self.skip_trivia();
            if self.peek() == Some('#') && self.peek_at(1) == Some('!') {
                while self.peek().is_some_and(|c| c != ']') {
                    self.bump();
                }
                self.bump();
            } else {
                return;
            }
        }
    }

    fn is_word_char(c: char) -> bool {
        c.is_alphanumeric() || matches!(c, '_' | '.' | '+' | '-')
    }

    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek().filter(|&c| Self::is_word_char(c)) {
            word.push(c);
            self.bump();
        }
        word
    }

    /// Skips a quoted string or char literal whose opening quote is next.
    fn skip_quoted(&mut self, quote: char) {
        self.bump();
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == quote {
                return;
            }
        }
    }

    /// Skips `r#"..."#` (the `r` is next).
    fn skip_raw_string(&mut self) {
        self.bump();
        let mut hashes = 0;
        while self.peek() == Some('#') {
            self.bump();
            hashes += 1;
        }
        self.bump();
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|k| self.peek_at(k) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                return;
            }
        }
    }

    fn leaf(&self, start: Pos) -> Option<Node> {
        Some(Node {
            start,
            end: self.pos(),
            content: Content::Leaf,
        })
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        self.skip_trivia();
        let start = self.pos();
        if depth > MAX_DEPTH {
            return None;
        }
        let c = self.peek()?;
        match c {
            '(' | '[' | '{' => {
                self.bump();
                let close = match c {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                let content = self.group(close, depth + 1);
                Some(Node {
                    start,
                    end: self.pos(),
                    content,
                })
            }
            '"' | '\'' => {
                self.skip_quoted(c);
                self.leaf(start)
            }
            'r' if matches!(self.peek_at(1), Some('"' | '#')) => {
                self.skip_raw_string();
                self.leaf(start)
            }
            'b' if matches!(self.peek_at(1), Some('"' | '\'')) => {
                self.bump();
                self.skip_quoted(self.peek().unwrap_or('"'));
                self.leaf(start)
            }
            c if Self::is_word_char(c) => {
                let word = self.word();
                let after_word = self.clone();
                self.skip_trivia();
                if self.peek() == Some('(') && word.starts_with(|c: char| c.is_alphabetic()) {
                    let inner = self.value(depth + 1)?;
                    Some(Node {
                        start,
                        end: self.pos(),
                        content: Content::Named(word, Box::new(inner)),
                    })
                } else {
                    *self = after_word;
                    self.leaf(start)
                }
            }
            _ => None,
        }
    }

    /// Reads the inside of a group up to `close`: named fields when the
    /// first item is `name:`, values otherwise.
    fn group(&mut self, close: char, depth: usize) -> Content {
        self.skip_trivia();
        // Named fields when the first item is a word or string followed by
        // `:`; only one token is looked at, so nesting stays linear.
        let probe = {
            let mut look = self.clone();
            match look.peek() {
                Some('"') => look.skip_quoted('"'),
                Some(c) if Self::is_word_char(c) => {
                    look.word();
                }
                _ => {}
            }
            look.skip_trivia();
            look.index > self.index && look.peek() == Some(':') && look.peek_at(1) != Some(':')
        };
        let mut fields = Vec::new();
        let mut items = Vec::new();
        loop {
            self.skip_trivia();
            if self.peek() == Some(close) {
                self.bump();
                break;
            }
            if probe {
                let name_pos = self.pos();
                let name_offset = self.index;
                if self.value(depth).is_none() {
                    break;
                }
                let name = self.text_from(name_offset);
                self.skip_trivia();
                if self.peek() != Some(':') {
                    break;
                }
                self.bump();
                let Some(value) = self.value(depth) else {
                    break;
                };
                fields.push((name, name_pos, value));
            } else {
                let Some(value) = self.value(depth) else {
                    break;
                };
                items.push(value);
            }
            self.skip_trivia();
            match self.peek() {
                Some(',') => {
                    self.bump();
                }
                Some(c) if c == close => {}
                _ => break,
            }
        }
        if probe {
            Content::Fields(fields)
        } else {
            Content::Seq(items)
        }
    }

    /// The text from character `from` to the cursor, without quotes.
    fn text_from(&self, from: usize) -> String {
        let text: String = self.chars[from.min(self.index)..self.index]
            .iter()
            .collect();
        text.trim_matches('"').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#![enable(implicit_some)]\n// a scene\nScene(\n  bodies: [\n    (name: \"a\", shape: Circle(radius: 0.5)),\n    ( /* b */ position: (1.0, -2.0), shape: Some(Polygon(points: [(0, 0), (1, 0), (0, 1)])) ),\n  ],\n)\n";

    fn path(segs: &[Seg]) -> FieldPath {
        FieldPath(segs.to_vec())
    }

    #[test]
    fn locates_fields_through_named_wrappers() {
        let root = Node::parse(TEXT);
        let radius = path(&[
            Seg::Field("bodies".into()),
            Seg::Index(0),
            Seg::Field("shape".into()),
            Seg::Field("radius".into()),
        ]);
        assert_eq!(
            root.locate(&radius),
            Pos {
                line: 5,
                column: 39
            }
        );
        let y = path(&[
            Seg::Field("bodies".into()),
            Seg::Index(1),
            Seg::Field("position".into()),
            Seg::Component(1),
        ]);
        assert_eq!(
            root.locate(&y),
            Pos {
                line: 6,
                column: 31
            }
        );
        let point = path(&[
            Seg::Field("bodies".into()),
            Seg::Index(1),
            Seg::Field("shape".into()),
            Seg::Field("points".into()),
            Seg::Index(2),
        ]);
        assert_eq!(
            root.locate(&point),
            Pos {
                line: 6,
                column: 83
            }
        );
    }

    #[test]
    fn missing_parts_of_a_path_stop_at_the_deepest_value_found() {
        let root = Node::parse(TEXT);
        let absent = path(&[
            Seg::Field("bodies".into()),
            Seg::Index(0),
            Seg::Field("velocity".into()),
        ]);
        assert_eq!(root.locate(&absent), Pos { line: 5, column: 5 });
    }

    #[test]
    fn path_at_finds_the_innermost_value() {
        let root = Node::parse(TEXT);
        let found = root.path_at(Pos {
            line: 5,
            column: 40,
        });
        assert_eq!(found.to_string(), "bodies[0].shape.radius");
        let found = root.path_at(Pos {
            line: 6,
            column: 32,
        });
        assert_eq!(found.to_string(), "bodies[1].position[1]");
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "(",
            ")",
            "[[[[",
            "(a: ",
            "(a: b: c)",
            "\"unterminated",
            "r#\"raw",
            "/* open",
            "'",
            "b'",
            "(x: (y: [1, 2,, 3]))",
            "Name(",
            "é(ü: 1)",
            "((((((((((((",
        ] {
            let root = Node::parse(text);
            let _ = root.path_at(Pos { line: 1, column: 3 });
            let _ = root.locate(&path(&[Seg::Field("a".into()), Seg::Index(3)]));
        }
        let deep = "(".repeat(10_000);
        let _ = Node::parse(&deep);
    }
}
