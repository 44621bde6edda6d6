//! The beam's policy beyond the evaluation: how a depth ranks its children.

use crate::eval::Weights;
use crate::fluid::FillPlan;
use crate::piece::Kind;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How much one point lowers a state's key (key = evaluation - score x weight) where nothing
/// names another: the contest's value, tuned with its shipped weights, which the browser
/// game's weights were tuned with too.
pub const DEFAULT_SCORE_WEIGHT: f64 = 0.024;

/// Beam policy beyond the evaluation: data, with defaults, so the tuner can search it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// For the last `endgame_pieces` pieces the key uses `endgame_score_weight` (when set)
    /// instead of the score weight: cells left on the board at the end never score.
    pub endgame_pieces: usize,
    pub endgame_score_weight: Option<f64>,
    /// A term of the key from the fluid model of the sequence ([`crate::fluid`]); none by
    /// default. Only games scored by their fill take it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_plan: Option<FillPlan>,
}

impl Default for Policy {
    /// The endgame on. The evaluation prices the board for a game that goes on, but cells
    /// still on the board after the last piece never score. A higher score weight for the last
    /// ten pieces lets the beam cash them in: +506 points per game on generated seeds 1-6 at
    /// beam 10,000, higher on every seed, and +616 on the contest at 20,000; longer endgames
    /// or a pure-score key lost.
    ///
    /// The fill plan on: the fluid model's price of a cell at each piece, capped at 175 cells,
    /// discounted by 0.98 a piece, at weight 0.5. Over the eight generated sequences of
    /// `bench/flips.sh` it gains 0.08% at width 1,000, 0.07% at 5,000 and 0.05% at 20,000 (22
    /// of the 24 games), for no measurable CPU (`bench/RESULTS.md`, "Fill plan").
    fn default() -> Self {
        Policy {
            endgame_pieces: 10,
            endgame_score_weight: Some(0.05),
            fill_plan: Some(FillPlan {
                cap: 175,
                weight: 0.5,
                discount: 0.98,
            }),
        }
    }
}

/// Why a policy cannot be used.
#[derive(Debug, Error, PartialEq)]
pub(crate) enum PolicyError {
    #[error("endgame_score_weight must be a finite number, not {0}")]
    NotFinite(f64),
    #[error("{0}")]
    FillPlan(String),
}

impl Policy {
    /// No endgame: one score weight from the first piece to the last.
    pub fn no_endgame() -> Policy {
        Policy {
            endgame_pieces: 0,
            endgame_score_weight: None,
            fill_plan: None,
        }
    }

    /// Reads a policy from JSON: an object whose fields left out keep their defaults (a
    /// byte-order mark at the start is skipped; errors name the field).
    pub fn from_json(text: &str) -> Result<Policy, String> {
        if let Some(kind) = crate::text::not_an_object(text) {
            return Err(format!(
                "a policy is a JSON object of named fields, not {kind}"
            ));
        }
        if let Some(kind) = crate::text::field_not_an_object(text, "fill_plan") {
            return Err(format!(
                "fill_plan must be an object of named fields, such as {{\"cap\": 175, \
                 \"weight\": 0.5, \"discount\": 0.98}}, or null for none, not {kind}"
            ));
        }
        let policy: Policy = crate::text::from_json(text).map_err(|e| e.to_string())?;
        policy.check().map_err(|e| e.to_string())?;
        Ok(policy)
    }

    /// Refuses values no search can use.
    pub(crate) fn check(&self) -> Result<(), PolicyError> {
        match self.endgame_score_weight {
            Some(w) if !w.is_finite() => return Err(PolicyError::NotFinite(w)),
            _ => {}
        }
        match &self.fill_plan {
            Some(plan) => plan.check().map_err(PolicyError::FillPlan),
            None => Ok(()),
        }
    }
}

/// How one depth ranks its children: key = evaluation(board, `weights`) - score x
/// `score_weight`.
pub struct Ranking {
    pub score_weight: f64,
    pub(crate) weights: Weights,
    /// A cost per cell count of the child (index 0 to 200), added to the key; empty for none.
    pub fill_costs: Vec<f64>,
}

impl Ranking {
    /// The ranking of depth `depth` of `depth_count` (the endgame's score weight for the last
    /// pieces; the weights that depend on the pieces to come).
    pub fn at(
        sequence: &[Kind],
        depth: usize,
        depth_count: usize,
        score_weight: f64,
        weights: &Weights,
        policy: &Policy,
    ) -> Ranking {
        let endgame = depth_count - depth <= policy.endgame_pieces;
        let score_weight = match policy.endgame_score_weight {
            Some(w) if endgame => w,
            _ => score_weight,
        };
        Ranking {
            score_weight,
            weights: weights.at_depth(sequence, depth),
            fill_costs: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped policy raises the score weight for exactly the last ten pieces, a policy
    /// file that leaves the endgame out keeps it, and `null` turns it off.
    #[test]
    fn the_shipped_endgame_covers_the_last_ten_pieces_and_can_be_turned_off() {
        let sequence = vec![Kind::O; 40];
        let weights = Weights::default();
        let policy = Policy::from_json("{\"endgame_pieces\": 10}").unwrap();
        assert_eq!(policy, Policy::default());
        let weight_at = |policy: &Policy, depth| {
            Ranking::at(&sequence, depth, 40, 0.024, &weights, policy).score_weight
        };
        assert_eq!(weight_at(&policy, 29), 0.024);
        assert_eq!(weight_at(&policy, 30), 0.05);
        assert_eq!(weight_at(&policy, 39), 0.05);
        let off = Policy::from_json("{\"endgame_score_weight\": null}").unwrap();
        assert_eq!(weight_at(&off, 39), 0.024);
    }

    #[test]
    fn policies_are_objects_of_known_fields_with_finite_values() {
        let error = |text: &str| Policy::from_json(text).unwrap_err();
        assert!(
            error("[10, 0.05]").contains("JSON object"),
            "{}",
            error("[10, 0.05]")
        );
        assert!(error("{\"score_gap\": 5}").contains("unknown field `score_gap`"));
        // JSON has no NaN or infinity: a number too large for a float is refused as such.
        assert!(error("{\"endgame_score_weight\": 1e999}").contains("out of range"));
        let nan = Policy {
            endgame_score_weight: Some(f64::NAN),
            ..Policy::default()
        };
        assert!(nan.check().is_err());
        assert!(error("{\"endgame_pieces\": -1}").contains("invalid value"));
    }

    /// A fill plan names its cap and weight; out-of-range values are refused with the field.
    #[test]
    fn fill_plans_are_checked_field_by_field() {
        let policy = Policy::from_json(r#"{"fill_plan": {"cap": 170, "weight": 0.5}}"#).unwrap();
        let plan = policy.fill_plan.unwrap();
        assert_eq!((plan.cap, plan.weight, plan.discount), (170, 0.5, 1.0));
        let off = Policy::from_json(r#"{"fill_plan": null}"#).unwrap();
        assert_eq!((off.fill_plan, off.endgame_pieces), (None, 10));
        assert!(Policy::default().fill_plan.is_some());
        let error = |text: &str| Policy::from_json(text).unwrap_err();
        for (text, message) in [
            (
                r#"{"fill_plan": {"cap": 201, "weight": 1}}"#,
                "fill_plan.cap is the most cells after a lock: from 8 to 200, not 201",
            ),
            (
                r#"{"fill_plan": {"cap": 175, "weight": 1, "discount": 0}}"#,
                "fill_plan.discount must be above 0 and at most 1, not 0",
            ),
            (
                r#"{"fill_plan": {"cap": 175, "weight": 1, "discount": 1.5}}"#,
                "fill_plan.discount must be above 0 and at most 1, not 1.5",
            ),
        ] {
            assert_eq!(error(text), message, "{text}");
        }
        assert!(error(r#"{"fill_plan": {"cap": 175}}"#).contains("missing field `weight`"));
        assert!(error(r#"{"fill_plan": [175, 1, 0.9]}"#)
            .starts_with("fill_plan must be an object of named fields"));
        assert!(error(r#"{"fill_plan": 175}"#).ends_with("not a number"));
        assert!(
            error(r#"{"fill_plan": {"cap": 175, "weight": 1, "form": "gap"}}"#)
                .contains("unknown field `form`")
        );
    }
}
