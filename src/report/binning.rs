//! Years binned so that each heatmap row has answers enough to say something.
//!
//! The rule: of the widths 1, 5, 10, 25, 50 and 100 years, take the smallest whose non-empty
//! bins hold on average at least [`MIN_MEAN_N`] answers (a run of 60 questions spread over
//! 40 different years gets decades or wider; a run with hundreds of answers per year keeps
//! single years). When even a century is too sparse, centuries it is. Bins are aligned to
//! multiples of their width (1990–1999, not 1987–1996), so the same year always lands in the
//! same bin.

/// The widths tried, smallest first.
pub const WIDTHS: [i32; 6] = [1, 5, 10, 25, 50, 100];

/// Answers a bin should hold on average.
pub const MIN_MEAN_N: u64 = 10;

/// The bin width for years with these answer counts.
pub fn width(counts: impl IntoIterator<Item = (i32, u64)> + Clone) -> i32 {
    for w in WIDTHS {
        let mut bins = std::collections::BTreeMap::<i32, u64>::new();
        for (y, n) in counts.clone() {
            *bins.entry(start(y, w)).or_insert(0) += n;
        }
        if bins.is_empty() {
            return 1;
        }
        let total: u64 = bins.values().sum();
        if total >= MIN_MEAN_N * bins.len() as u64 {
            return w;
        }
    }
    WIDTHS[WIDTHS.len() - 1]
}

/// The first year of the bin `y` falls in.
pub fn start(y: i32, width: i32) -> i32 {
    y.div_euclid(width) * width
}

/// The rows of the year view: each non-empty bin as (first year, last year), in order.
pub fn bins(years: impl IntoIterator<Item = i32>, width: i32) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::new();
    for y in years {
        let s = start(y, width);
        if out.last().is_none_or(|l| l.0 != s) {
            out.push((s, s + width - 1));
        }
    }
    out
}

/// "1990" for one year, "1990–1999" for a bin.
pub fn label(from: i32, to: i32) -> String {
    if from == to {
        from.to_string()
    } else {
        format!("{from}–{to}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_years_stay_single() {
        let counts: Vec<(i32, u64)> = (1990..2000).map(|y| (y, 12)).collect();
        assert_eq!(width(counts.iter().copied()), 1);
    }

    #[test]
    fn sparse_years_become_decades_or_wider() {
        // 30 answers over 30 years, one each: 5-year bins hold 5 on average, decades 10.
        let counts: Vec<(i32, u64)> = (1960..1990).map(|y| (y, 1)).collect();
        assert_eq!(width(counts.iter().copied()), 10);
        assert_eq!(
            bins(counts.iter().map(|c| c.0), 10),
            [(1960, 1969), (1970, 1979), (1980, 1989)]
        );
        // Three answers in scattered years: not even a century holds ten.
        assert_eq!(width([(1066, 1), (1789, 1), (1989, 1)]), 100);
    }

    #[test]
    fn bins_are_aligned_and_labelled() {
        assert_eq!(start(1987, 10), 1980);
        assert_eq!(start(-45, 10), -50, "years BCE bin downwards too");
        assert_eq!(
            bins([1961, 1965, 1972], 5),
            [(1960, 1964), (1965, 1969), (1970, 1974)]
        );
        assert_eq!(label(1990, 1999), "1990–1999");
        assert_eq!(label(1990, 1990), "1990");
        assert_eq!(width(std::iter::empty()), 1);
    }
}
