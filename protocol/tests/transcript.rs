//! The example game in protocol.md is exactly what this codec writes.

use endodoi::{Rules, Side};
use endodoi_protocol::{GameOver, NewGame, Turn};

#[test]
fn protocol_md_transcript_is_true() {
    let doc = include_str!("../../protocol.md");
    let start = doc.find("## A full game").expect("section");
    let section = &doc[start..];
    let block = section.split("```").nth(1).expect("transcript block");
    let documented: Vec<&str> = block
        .lines()
        .filter(|l| {
            l.starts_with("> turn") || l.starts_with("> gameover") || l.starts_with("> newgame")
        })
        .map(|l| &l[2..])
        .collect();

    let rules = Rules::new(3, 2).unwrap();
    let mut pos = rules.start();
    let mut sent = Vec::new();
    let g = NewGame {
        rules,
        side: Side::South,
        move_time_ms: 1000,
        base_time_ms: 0,
        increment_ms: 0,
        game: Some((1, 1)),
    };
    sent.push(g.to_string());
    let mut last = None;
    while !pos.is_over() {
        let legal = pos.legal_moves();
        if pos.to_move() == Side::South {
            sent.push(Turn::new(&pos, last, legal, 1000, None).to_string());
        }
        let mv = legal.first().unwrap();
        pos.play(mv).unwrap();
        last = Some(mv);
    }
    let o = pos.outcome().unwrap();
    let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    let over = GameOver::new(Side::South, o.winner, seeds, o.termination.name());
    sent.push(over.to_string());
    assert_eq!(documented, sent);
}

/// Every line the doc shows a side sending decodes as that side's message.
#[test]
fn protocol_md_lines_decode() {
    let doc = include_str!("../../protocol.md");
    for block in doc.split("```").skip(1).step_by(2) {
        for line in block.lines() {
            if let Some(request) = line.strip_prefix("> ") {
                let parsed: endodoi_protocol::Request = request.parse().expect(request);
                assert_eq!(parsed.to_string(), request);
            } else if let Some(reply) = line.strip_prefix("< ") {
                let parsed = endodoi_protocol::Reply::parse(reply).expect(reply);
                assert_eq!(parsed.to_string(), reply);
            }
        }
    }
}
