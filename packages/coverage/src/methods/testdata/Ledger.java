package org.books;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
  static final List<String> NAMES = new ArrayList<>();
  static final int LIMIT = 10;
  static int counter = LIMIT * 2;

  record Entry(String account, long cents) {
    Entry {
      if (cents < 0) {
        throw new IllegalArgumentException("negative");
      }
    }

    String label() {
      return account + cents;
    }
  }

  record Pair<A>(A left, A right) {
    public A left() {
      return left;
    }
  }

  enum Currency {
    EUR("€"),
    USD("$");

    private final String symbol;

    Currency(String symbol) {
      this.symbol = symbol;
    }
  }

  interface Rule {
    boolean test(Entry e);

    static Rule any() {
      return e -> true;
    }
  }

  class Page {
    class Line {
      Line(Entry e) {
        Runnable r = () -> new Object() {
          @Override
          public String toString() {
            return e.label();
          }
        }.toString();
        r.run();
      }
    }
  }

  static int total(List<Entry> entries) {
    class Sum {
      long value;
    }
    Sum sum = new Sum();
    entries.forEach(e -> sum.value += e.cents());
    return (int) sum.value;
  }

  static class Tally {
    private int count = 1;
    private final List<String> seen = new ArrayList<>();

    {
      count++;
    }

    Tally() {
      seen.add("start");
    }

    Tally(int start) {
      count = start;
    }
  }

  static class Plain {
    private String name = "plain".toUpperCase();
  }

  interface Defaults {
    List<String> NAMES = List.of("a");
  }
}
