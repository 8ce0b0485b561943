//! Chinese Swiss (积分编排制).

mod blossom;
