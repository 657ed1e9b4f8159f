//! Hand-checked values for the match statistics in `marshal::arena::stats`.

use marshal::arena::stats::{elo_from_score, elo_interval, erf, los, summary, Score, Sprt, SprtStatus};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} differs from {b} by more than {tol}");
}

#[test]
fn score_counts_points_and_mean() {
    let s = Score {
        wins: 12,
        draws: 3,
        losses: 5,
    };
    assert_eq!(s.games(), 20);
    close(s.points(), 13.5, 1e-12);
    close(s.score(), 0.675, 1e-12);
    // An empty match scores 0.5 and has an Elo estimate of 0.
    let empty = Score::default();
    assert_eq!(empty.games(), 0);
    close(empty.score(), 0.5, 1e-12);
    let (e, lo, hi) = elo_interval(&empty);
    assert_eq!(e, 0.0);
    assert_eq!(lo, f64::NEG_INFINITY);
    assert_eq!(hi, f64::INFINITY);
}

#[test]
fn elo_from_score_known_values() {
    // 0.75: 1/p - 1 = 1/3, -400 * log10(1/3) = 400 * 0.4771213 = 190.8485.
    close(elo_from_score(0.75), 190.8485, 1e-3);
    close(elo_from_score(0.25), -190.8485, 1e-3);
    close(elo_from_score(0.5), 0.0, 1e-12);
    // 0.7: 1/p - 1 = 3/7, log10(3/7) = -0.3679768, Elo = 147.1907.
    close(elo_from_score(0.7), 147.1907, 1e-3);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    assert_eq!(elo_from_score(1.2), f64::INFINITY);
    assert_eq!(elo_from_score(-0.1), f64::NEG_INFINITY);
}

#[test]
fn erf_known_values() {
    close(erf(0.0), 0.0, 1e-15);
    close(erf(0.5), 0.5204998778, 1e-9);
    close(erf(1.0), 0.8427007929, 1e-9);
    close(erf(-1.5), -0.9661051465, 1e-9);
    close(erf(2.0), 0.9953222650, 1e-9);
    close(erf(3.0), 0.9999779095, 1e-9);
    close(erf(-4.0), -0.9999999846, 1e-9);
    assert_eq!(erf(10.0), 1.0);
    assert_eq!(erf(-10.0), -1.0);
    // Odd function.
    for i in 0..60 {
        let x = i as f64 * 0.1;
        close(erf(-x), -erf(x), 1e-15);
        assert!(erf(x).abs() <= 1.0);
    }
}

#[test]
fn los_known_values() {
    // Equal wins and losses: erf(0) = 0, LOS = 0.5, whatever the draws.
    close(los(&Score::new(10, 0, 10)), 0.5, 1e-12);
    close(los(&Score::new(10, 50, 10)), 0.5, 1e-12);
    // No decisive games: 0.5.
    close(los(&Score::new(0, 7, 0)), 0.5, 1e-12);
    // W=12 L=5: (12-5)/sqrt(2*17) = 7/5.8309519 = 1.2004901,
    // erf(1.2004901) = 0.9104449, LOS = 0.9552225.
    close(los(&Score::new(12, 3, 5)), 0.9552225, 1e-6);
    // Mirror image: 1 - 0.9552225.
    close(los(&Score::new(5, 3, 12)), 0.0447775, 1e-6);
}

/// W=60 D=20 L=20, worked by hand:
/// N = 100, points = 60 + 10 = 70, p = 0.7.
/// var = (60*(0.3)^2 + 20*(0.2)^2 + 20*(0.7)^2) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16.
/// se = sqrt(0.16 / 100) = 0.04; half width 1.959964 * 0.04 = 0.07839856.
/// scores 0.62160144 and 0.77839856 give Elo +86.2250 and +218.2518; centre +147.1907.
/// LOS: (60-20)/sqrt(160) = 3.1622777, erf = 0.9999923, LOS = 0.9999961.
/// SPRT elo0=0 elo1=10: s0 = 0.5, s1 = 1/(1+10^-0.025) = 1/1.9440609 = 0.5143872;
/// LLR = 100 * 0.0143872 * (1.4 - 1.0143872) / (2 * 0.16)
///     = 100 * 0.0143872 * 0.3856128 / 0.32 = 1.7337.
#[test]
fn worked_example_60_20_20() {
    let s = Score::new(60, 20, 20);
    close(s.score(), 0.7, 1e-12);
    close(s.variance(), 0.16, 1e-12);
    close(s.std_error(), 0.04, 1e-12);
    let (e, lo, hi) = elo_interval(&s);
    close(e, 147.1907, 1e-3);
    close(lo, 86.2250, 1e-3);
    close(hi, 218.2518, 1e-3);
    close(los(&s), 0.9999961, 1e-6);
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05);
    close(t.llr(&s), 1.7337, 1e-3);
    assert_eq!(t.status(&s), SprtStatus::Continue);
}

#[test]
fn sprt_bounds() {
    // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
    let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.05).bounds();
    close(lo, -2.944, 1e-3);
    close(hi, 2.944, 1e-3);
    // alpha=0.05 beta=0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
    let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.1).bounds();
    close(lo, -2.251292, 1e-6);
    close(hi, 2.890372, 1e-6);
}

#[test]
fn sprt_decisions() {
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05);
    // Strong: ten times the worked example, LLR = 17.337 > 2.944.
    let strong = Score::new(600, 200, 200);
    close(t.llr(&strong), 17.337, 1e-2);
    assert_eq!(t.status(&strong), SprtStatus::AcceptH1);
    // Weak: W=1500 D=2000 L=1500, p = 0.5, var = (1500*0.25 + 1500*0.25)/5000 = 0.15,
    // LLR = 5000 * 0.0143872 * (1 - 1.0143872) / 0.3 = -3.4499 < -2.944.
    let weak = Score::new(1500, 2000, 1500);
    close(t.llr(&weak), -3.4499, 1e-3);
    assert_eq!(t.status(&weak), SprtStatus::AcceptH0);
    // A losing engine drives the LLR negative, a winning one positive.
    assert!(t.llr(&Score::new(20, 20, 60)) < 0.0);
    assert!(t.llr(&Score::new(60, 20, 20)) > 0.0);
    // Degenerate samples take no decision.
    assert_eq!(t.llr(&Score::new(0, 0, 0)), 0.0);
    assert_eq!(t.llr(&Score::new(30, 0, 0)), 0.0);
    assert_eq!(t.status(&Score::new(0, 40, 0)), SprtStatus::Continue);
}

#[test]
fn interval_edges() {
    // All wins: zero variance, infinite Elo.
    let (e, lo, hi) = elo_interval(&Score::new(5, 0, 0));
    assert_eq!((e, lo, hi), (f64::INFINITY, f64::INFINITY, f64::INFINITY));
    // One win, one loss: p = 0.5, var = 0.25, se = 0.3536, p + 1.96 se > 1.
    let (e, lo, hi) = elo_interval(&Score::new(1, 0, 1));
    assert_eq!(e, 0.0);
    assert_eq!(lo, f64::NEG_INFINITY);
    assert_eq!(hi, f64::INFINITY);
}

#[test]
fn summary_format() {
    // W=12 D=3 L=5: p = 0.675, var = (12*0.105625 + 3*0.030625 + 5*0.455625)/20 = 0.181875,
    // se = 0.0953612; Elo +127.0 in [-8.3, +318.1]; LOS 95.5%.
    let s = Score::new(12, 3, 5);
    let line = summary(&s, None);
    assert_eq!(
        line,
        "W/D/L 12/3/5  score 0.675  Elo +127.0 [-8.3, +318.1] (95%)  LOS 95.5%"
    );
    assert_eq!(line.lines().count(), 1);
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05);
    let two = summary(&s, Some(&t));
    let lines: Vec<&str> = two.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], line);
    assert!(lines[1].starts_with("SPRT"), "{}", lines[1]);
    assert!(lines[1].contains("LLR 0.27"), "{}", lines[1]);
    assert!(lines[1].contains("[-2.94, +2.94]"), "{}", lines[1]);
    assert!(lines[1].ends_with("continue"), "{}", lines[1]);
    // Perfect score prints infinities rather than garbage.
    let perfect = summary(&Score::new(4, 0, 0), None);
    assert!(perfect.contains("Elo +inf [+inf, +inf]"), "{perfect}");
}
