// sparse.rs -- sparse LU for the Newton matrices of Radau IIA on large sparse models, as
// fmu_templates/sparse_lu.c: a minimum degree order on the graph of A + A^T, computed once
// per pattern, then left-looking Gilbert-Peierls LU with threshold partial pivoting that
// prefers the diagonal. Column k of the factors: x = L \ A(:, order[k]) restricted to the
// rows reachable in the graph of L; L keeps its unit diagonal first in each column, U its
// diagonal last, stored as its reciprocal so that solves multiply.

use crate::lu::Scalar;

/// A row not yet chosen as a pivot.
const NOT_PIVOTAL: usize = usize::MAX;
/// Take the diagonal as pivot while it is at least this fraction of the column's largest
/// candidate: keeps the fill-reducing order intact without giving up stability.
const DIAGONAL_PIVOT_THRESHOLD: f64 = 0.1;

/// The elimination order of minimum degree on the graph of A + A^T.
fn minimum_degree_order(n: usize, column_start: &[usize], rows: &[usize]) -> Vec<usize> {
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..n {
        for &i in &rows[column_start[j]..column_start[j + 1]] {
            if i != j {
                adjacent[i].push(j);
                adjacent[j].push(i);
            }
        }
    }
    for list in adjacent.iter_mut() {
        // drop duplicate edges, keeping the first occurrence's place
        let mut seen = std::collections::HashSet::new();
        list.retain(|item| seen.insert(*item));
    }
    let mut eliminated = vec![false; n];
    let mut mark = vec![usize::MAX; n];
    let mut order = Vec::with_capacity(n);
    for _ in 0..n {
        let mut best = usize::MAX;
        for v in 0..n {
            if !eliminated[v] && (best == usize::MAX || adjacent[v].len() < adjacent[best].len()) {
                best = v;
            }
        }
        order.push(best);
        eliminated[best] = true;
        for item in mark.iter_mut() {
            *item = usize::MAX;
        }
        // eliminate `best`: its neighbours become a clique and lose it
        let clique = std::mem::take(&mut adjacent[best]);
        for (a, &u) in clique.iter().enumerate() {
            let neighbour = &mut adjacent[u];
            if let Some(at) = neighbour.iter().position(|&w| w == best) {
                neighbour.swap_remove(at);
            }
            for &w in neighbour.iter() {
                mark[w] = a;
            }
            mark[u] = a;
            for &w in &clique {
                if mark[w] != a {
                    neighbour.push(w);
                }
            }
        }
    }
    order
}

pub struct SparseLu<T: Scalar> {
    n: usize,
    column_start: Vec<usize>,
    rows: Vec<usize>,
    order: Vec<usize>,
    values: Vec<T>,
    l_start: Vec<usize>,
    l_rows: Vec<usize>,
    l_values: Vec<T>,
    u_start: Vec<usize>,
    u_rows: Vec<usize>,
    u_values: Vec<T>,
    pivot_of_row: Vec<usize>,
    work: Vec<T>,
    reach: Vec<usize>,
    stack: Vec<usize>,
    next_child: Vec<usize>,
    visited: Vec<usize>,
    visit_mark: usize,
}

impl<T: Scalar> SparseLu<T> {
    /// Analyse the square pattern (CSC, rows ascending in each column).
    pub fn new(n: usize, column_start: &[usize], rows: &[usize]) -> SparseLu<T> {
        let nnz = column_start[n];
        SparseLu {
            n,
            column_start: column_start.to_vec(),
            rows: rows[..nnz].to_vec(),
            order: minimum_degree_order(n, column_start, rows),
            values: vec![T::ZERO; nnz],
            l_start: vec![0; n + 1],
            l_rows: Vec::with_capacity(nnz + n),
            l_values: Vec::with_capacity(nnz + n),
            u_start: vec![0; n + 1],
            u_rows: Vec::with_capacity(nnz + n),
            u_values: Vec::with_capacity(nnz + n),
            pivot_of_row: vec![NOT_PIVOTAL; n],
            work: vec![T::ZERO; n],
            reach: vec![0; n],
            stack: vec![0; n],
            next_child: vec![0; n],
            visited: vec![0; n],
            visit_mark: 0,
        }
    }

    /// The values of the matrix to factor, in the pattern's order.
    pub fn values_mut(&mut self) -> &mut [T] {
        &mut self.values
    }

    /// Rows reachable from the nonzeros of `column` through the columns of L computed so
    /// far, in topological order, written to reach[top..n]; returns top. Iterative DFS.
    fn reach_of_column(&mut self, column: usize) -> usize {
        let n = self.n;
        let mut top = n;
        self.visit_mark += 1;
        let mark = self.visit_mark;
        for p in self.column_start[column]..self.column_start[column + 1] {
            let start = self.rows[p];
            if self.visited[start] == mark {
                continue;
            }
            let mut depth = 0;
            self.stack[0] = start;
            self.visited[start] = mark;
            let start_column = self.pivot_of_row[start];
            self.next_child[0] = if start_column == NOT_PIVOTAL { 0 } else { self.l_start[start_column] + 1 };
            loop {
                let row = self.stack[depth];
                let l_column = self.pivot_of_row[row];
                let mut descended = false;
                if l_column != NOT_PIVOTAL {
                    let end = self.l_start[l_column + 1];
                    while self.next_child[depth] < end {
                        let child = self.l_rows[self.next_child[depth]];
                        self.next_child[depth] += 1;
                        if self.visited[child] == mark {
                            continue;
                        }
                        self.visited[child] = mark;
                        let child_column = self.pivot_of_row[child];
                        depth += 1;
                        self.stack[depth] = child;
                        self.next_child[depth] = if child_column == NOT_PIVOTAL { 0 } else { self.l_start[child_column] + 1 };
                        descended = true;
                        break;
                    }
                }
                if descended {
                    continue;
                }
                top -= 1;
                self.reach[top] = row;
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
        }
        top
    }

    /// Factor the values set through `values_mut`. Returns 0, or k + 1 when column k has no
    /// pivot.
    pub fn factor(&mut self) -> usize {
        let n = self.n;
        self.l_rows.clear();
        self.l_values.clear();
        self.u_rows.clear();
        self.u_values.clear();
        for item in self.pivot_of_row.iter_mut() {
            *item = NOT_PIVOTAL;
        }
        for k in 0..n {
            // L(:,k) is still being built: the DFS only enters columns whose rows are pivotal
            self.l_start[k] = self.l_rows.len();
            self.u_start[k] = self.u_rows.len();
            let column = self.order[k];
            let top = self.reach_of_column(column);
            for p in top..n {
                self.work[self.reach[p]] = T::ZERO;
            }
            for p in self.column_start[column]..self.column_start[column + 1] {
                self.work[self.rows[p]] = self.values[p];
            }
            for p in top..n {
                let row = self.reach[p];
                let l_column = self.pivot_of_row[row];
                if l_column == NOT_PIVOTAL {
                    continue;
                }
                let xj = self.work[row];
                for q in self.l_start[l_column] + 1..self.l_start[l_column + 1] {
                    let target = self.l_rows[q];
                    self.work[target] = self.work[target] - self.l_values[q] * xj;
                }
            }
            let mut pivot_row = NOT_PIVOTAL;
            let mut largest = -1.0;
            for p in top..n {
                let row = self.reach[p];
                if self.pivot_of_row[row] == NOT_PIVOTAL {
                    let magnitude = self.work[row].magnitude();
                    if magnitude > largest {
                        largest = magnitude;
                        pivot_row = row;
                    }
                } else {
                    self.u_rows.push(self.pivot_of_row[row]);
                    self.u_values.push(self.work[row]);
                }
            }
            if pivot_row == NOT_PIVOTAL || largest <= 0.0 {
                return k + 1;
            }
            if self.pivot_of_row[column] == NOT_PIVOTAL && self.visited[column] == self.visit_mark
                && self.work[column].magnitude() >= DIAGONAL_PIVOT_THRESHOLD * largest
            {
                pivot_row = column;
            }
            let inverse_pivot = self.work[pivot_row].reciprocal();
            self.u_rows.push(k);
            self.u_values.push(inverse_pivot);
            self.pivot_of_row[pivot_row] = k;
            self.l_rows.push(pivot_row);
            self.l_values.push(T::ONE);
            for p in top..n {
                let row = self.reach[p];
                if self.pivot_of_row[row] == NOT_PIVOTAL {
                    self.l_rows.push(row);
                    self.l_values.push(self.work[row] * inverse_pivot);
                }
            }
            self.l_start[k + 1] = self.l_rows.len();
        }
        self.l_start[n] = self.l_rows.len();
        self.u_start[n] = self.u_rows.len();
        // from here on, L's rows are numbered in pivot order
        for p in 0..self.l_rows.len() {
            self.l_rows[p] = self.pivot_of_row[self.l_rows[p]];
        }
        0
    }

    /// Solve A x = b in place.
    pub fn solve(&mut self, b: &mut [T]) {
        let n = self.n;
        for i in 0..n {
            self.work[self.pivot_of_row[i]] = b[i];
        }
        for j in 0..n {
            let xj = self.work[j];
            for p in self.l_start[j] + 1..self.l_start[j + 1] {
                let target = self.l_rows[p];
                self.work[target] = self.work[target] - self.l_values[p] * xj;
            }
        }
        for j in (0..n).rev() {
            let diagonal = self.u_start[j + 1] - 1;
            self.work[j] = self.work[j] * self.u_values[diagonal];
            let xj = self.work[j];
            for p in self.u_start[j]..diagonal {
                let target = self.u_rows[p];
                self.work[target] = self.work[target] - self.u_values[p] * xj;
            }
        }
        for k in 0..n {
            b[self.order[k]] = self.work[k];
        }
    }
}
