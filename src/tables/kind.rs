//! Column kinds: for each kind of column, its Arrow type, the borrowed value a row holds, the
//! Arrow builder that takes it and the run column ([`crate::parts::runs`]) that takes it.

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
    TimestampMicrosecondBuilder,
};
use arrow_array::ArrayRef;
use arrow_schema::{DataType, Field, TimeUnit};
use std::sync::Arc;

use crate::parts::columns::{BoolCol, DictCol, LabelCol, StrCol, StrListCol, TextCol};
use crate::parts::runs::RunColumn;

/// A column kind: its Arrow type, the borrowed value a row holds, the Arrow builder that takes it
/// and the column of a table written from runs ([`crate::parts::runs`]) that takes it.
pub trait Kind {
    type Value<'a>;
    type Builder: Default;
    type RunCol: RunColumn + Default + Send;
    /// Written without a Parquet dictionary (mostly distinct values).
    const PLAIN: bool = false;
    fn data_type() -> DataType;
    fn append(b: &mut Self::Builder, v: &Self::Value<'_>);
    fn finish(b: &mut Self::Builder) -> ArrayRef;
    /// The bytes of variable-length data the builder holds (its string values), which Arrow's
    /// 32-bit offsets bound at 2 GiB a column; 0 for a fixed-width kind.
    fn bytes(b: &Self::Builder) -> usize {
        let _ = b;
        0
    }
    /// Append `n` rows of `v` to a run column.
    fn push(c: &mut Self::RunCol, v: &Self::Value<'_>, n: u32);
}

/// UTF-8 string, dictionary-encoded in Parquet (values that repeat: names, enums, hosts).
pub struct Str;
/// UTF-8 string from a closed set (an enum's names, `&'static str`), dictionary-encoded like
/// [`Str`]; a column written from runs knows its values by their address.
pub struct Label;
/// UTF-8 string of mostly distinct values (URLs, line values), PLAIN-encoded in Parquet.
pub struct Text;
/// 64-bit integer.
pub struct I64;
/// 32-bit integer.
pub struct I32;
/// Boolean.
pub struct Bool;
/// 64-bit float.
pub struct F64;
/// Timestamp, microseconds, UTC.
pub struct Ts;
/// List of UTF-8 strings.
pub struct StrList;

macro_rules! str_kind {
    ($kind:ident, $value:ty, $run_col:ty, $push:ident, $plain:expr) => {
        impl Kind for $kind {
            type Value<'a> = Option<$value>;
            type Builder = StringBuilder;
            type RunCol = $run_col;
            const PLAIN: bool = $plain;
            fn data_type() -> DataType {
                DataType::Utf8
            }
            fn append(b: &mut StringBuilder, v: &Self::Value<'_>) {
                b.append_option(*v)
            }
            fn finish(b: &mut StringBuilder) -> ArrayRef {
                Arc::new(b.finish())
            }
            fn bytes(b: &StringBuilder) -> usize {
                b.values_slice().len()
            }
            fn push(c: &mut $run_col, v: &Self::Value<'_>, n: u32) {
                c.$push(*v, n)
            }
        }
    };
}
str_kind!(Str, &'a str, StrCol, push_str, false);
str_kind!(Text, &'a str, TextCol, push_str, true);
str_kind!(Label, &'static str, LabelCol, push_label, false);

macro_rules! prim_kind {
    ($kind:ident, $t:ty, $builder:ty, $dt:expr) => {
        impl Kind for $kind {
            type Value<'a> = Option<$t>;
            type Builder = $builder;
            type RunCol = DictCol<$t>;
            fn data_type() -> DataType {
                $dt
            }
            fn append(b: &mut $builder, v: &Option<$t>) {
                b.append_option(*v)
            }
            fn finish(b: &mut $builder) -> ArrayRef {
                Arc::new(b.finish())
            }
            fn push(c: &mut DictCol<$t>, v: &Option<$t>, n: u32) {
                c.push(v.as_ref(), n)
            }
        }
    };
}
prim_kind!(I64, i64, Int64Builder, DataType::Int64);
prim_kind!(I32, i32, Int32Builder, DataType::Int32);
prim_kind!(F64, f64, Float64Builder, DataType::Float64);

impl Kind for Bool {
    type Value<'a> = Option<bool>;
    type Builder = BooleanBuilder;
    type RunCol = BoolCol;
    fn data_type() -> DataType {
        DataType::Boolean
    }
    fn append(b: &mut BooleanBuilder, v: &Option<bool>) {
        b.append_option(*v)
    }
    fn finish(b: &mut BooleanBuilder) -> ArrayRef {
        Arc::new(b.finish())
    }
    fn push(c: &mut BoolCol, v: &Option<bool>, n: u32) {
        c.push(*v, n)
    }
}

impl Kind for Ts {
    type Value<'a> = Option<i64>;
    type Builder = TimestampMicrosecondBuilder;
    type RunCol = DictCol<i64>;
    fn data_type() -> DataType {
        DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    }
    fn append(b: &mut TimestampMicrosecondBuilder, v: &Option<i64>) {
        b.append_option(*v)
    }
    fn finish(b: &mut TimestampMicrosecondBuilder) -> ArrayRef {
        Arc::new(b.finish().with_timezone("UTC"))
    }
    fn push(c: &mut DictCol<i64>, v: &Option<i64>, n: u32) {
        c.push(v.as_ref(), n)
    }
}

impl Kind for StrList {
    type Value<'a> = Option<&'a [&'a str]>;
    type Builder = ListBuilder<StringBuilder>;
    type RunCol = StrListCol;
    fn push(c: &mut StrListCol, v: &Option<&[&str]>, n: u32) {
        c.push(*v, n)
    }
    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
    }
    fn append(b: &mut ListBuilder<StringBuilder>, v: &Option<&[&str]>) {
        match v {
            Some(items) => {
                for s in *items {
                    b.values().append_value(s);
                }
                b.append(true);
            }
            None => b.append(false),
        }
    }
    fn finish(b: &mut ListBuilder<StringBuilder>) -> ArrayRef {
        Arc::new(b.finish())
    }
    fn bytes(b: &ListBuilder<StringBuilder>) -> usize {
        b.values_ref().values_slice().len()
    }
}
