package com.acme;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

public class Shapes<T extends Comparable<T>> {
  static final Map<String, Integer> CACHE;

  static {
    CACHE = new java.util.HashMap<>();
  }

  private final List<T> items;

  public Shapes(List<T> items) {
    this.items = items;
  }

  Shapes() {
    this(List.of());
  }

  int area(int w, int h) {
    return w * h;
  }

  double area(double r) {
    return Math.PI * r * r;
  }

  String describe(String name, Object... rest) {
    Function<String, String> upper = s -> s.toUpperCase();
    return upper.apply(name) + rest.length;
  }

  T first(int[][] grid, Map.Entry<String, T> entry) {
    Runnable r = new Runnable() {
      @Override
      public void run() {
        System.out.println(grid.length);
      }
    };
    r.run();
    return entry.getValue();
  }

  <U extends Number> long widen(U value, Inner inner, Nested nested) {
    return value.longValue();
  }

  class Inner {
    Inner(int x) {
      System.out.println(x);
    }

    void touch() {
      items.clear();
    }
  }

  static class Nested {
    String name() {
      return "nested";
    }
  }

  enum Kind {
    ROUND {
      @Override
      int corners() {
        return 0;
      }
    },
    SQUARE;

    int corners() {
      return 4;
    }
  }

  interface Measurable {
    double measure();

    default String unit() {
      return "cm";
    }
  }

  int countLocal() {
    class Counter {
      int next(int n) {
        return n + 1;
      }
    }
    return new Counter().next(1);
  }
}
