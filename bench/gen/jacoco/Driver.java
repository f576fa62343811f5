import com.google.common.base.CharMatcher;
import com.google.common.base.Joiner;
import com.google.common.base.Splitter;
import com.google.common.base.Strings;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.HashBasedTable;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Iterables;
import com.google.common.collect.Lists;
import com.google.common.collect.Maps;
import com.google.common.collect.Multiset;
import com.google.common.collect.Ordering;
import com.google.common.collect.Range;
import com.google.common.collect.RangeSet;
import com.google.common.collect.Sets;
import com.google.common.collect.Table;
import com.google.common.collect.TreeMultiset;
import com.google.common.collect.TreeRangeSet;
import com.google.common.eventbus.EventBus;
import com.google.common.eventbus.Subscribe;
import com.google.common.graph.GraphBuilder;
import com.google.common.graph.Graphs;
import com.google.common.graph.MutableGraph;
import com.google.common.hash.Hashing;
import com.google.common.io.BaseEncoding;
import com.google.common.io.ByteStreams;
import com.google.common.math.IntMath;
import com.google.common.math.LongMath;
import com.google.common.math.Stats;
import com.google.common.net.HostAndPort;
import com.google.common.net.InternetDomainName;
import com.google.common.net.MediaType;
import com.google.common.net.UrlEscapers;
import com.google.common.primitives.Ints;
import com.google.common.primitives.Longs;
import com.google.common.primitives.UnsignedLongs;
import com.google.common.reflect.TypeToken;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Exercises a broad slice of Guava so the JaCoCo agent records a realistic mix of covered and missed code. */
public final class Driver {
  public static void main(String[] args) throws Exception {
    long sink = 0;
    for (int round = 0; round < 3; round++) {
      List<String> words = Splitter.on(CharMatcher.anyOf(" ,;")).omitEmptyStrings().trimResults()
          .splitToList("alpha, beta; gamma delta ,epsilon zeta eta theta");
      sink += Joiner.on('|').skipNulls().join(words).length();
      sink += Strings.padStart(Strings.repeat("x", round + 1), 10, '-').length();
      sink += CharMatcher.javaDigit().countIn("a1b2c3" + round);

      ImmutableList<Integer> numbers = ImmutableList.of(5, 3, 9, 1, 7, round);
      sink += Ordering.natural().max(numbers);
      sink += ImmutableSortedSet.copyOf(numbers).first();
      sink += Iterables.size(Iterables.filter(numbers, n -> n % 2 == 1));
      sink += Lists.partition(Lists.newArrayList(numbers), 2).size();
      Map<String, Integer> lengths = Maps.toMap(words, String::length);
      sink += ImmutableMap.copyOf(lengths).size();
      sink += Sets.union(Sets.newHashSet(1, 2), Sets.newHashSet(2, 3)).size();

      ArrayListMultimap<String, Integer> multimap = ArrayListMultimap.create();
      for (String w : words) multimap.put(w.substring(0, 1), w.length());
      sink += multimap.keySet().size();
      Multiset<String> bag = TreeMultiset.create(words);
      sink += bag.count("alpha");
      Table<Integer, Integer, String> table = HashBasedTable.create();
      table.put(1, 2, "a");
      table.put(2, 1, "b");
      sink += table.row(1).size();

      RangeSet<Integer> ranges = TreeRangeSet.create();
      ranges.add(Range.closed(1, 10));
      ranges.add(Range.closedOpen(20, 30));
      sink += ranges.contains(25) ? 1 : 0;

      sink += Hashing.sha256().hashString("guava" + round, StandardCharsets.UTF_8).asInt();
      sink += Hashing.murmur3_128().hashLong(round).asLong();
      sink += BaseEncoding.base64().encode(new byte[] {1, 2, 3, (byte) round}).length();
      sink += BaseEncoding.base16().lowerCase().decode("cafe").length;
      sink += ByteStreams.toByteArray(new ByteArrayInputStream(new byte[64])).length;

      sink += IntMath.gcd(48, 18) + IntMath.checkedAdd(1, round) + LongMath.factorial(10);
      sink += (long) Stats.of(1, 2, 3, 4).mean();
      sink += Ints.max(3, 1, 4) + Longs.hashCode(99L) + UnsignedLongs.compare(1L, -1L);

      sink += HostAndPort.fromString("example.org:8080").getPort();
      sink += InternetDomainName.from("www.example.co.uk").topPrivateDomain().toString().length();
      sink += MediaType.parse("text/html; charset=utf-8").subtype().length();
      sink += UrlEscapers.urlPathSegmentEscaper().escape("a b/c").length();

      LoadingCache<Integer, String> cache = CacheBuilder.newBuilder().maximumSize(4)
          .build(CacheLoader.from(k -> "v" + k));
      for (int k = 0; k < 8; k++) sink += cache.getUnchecked(k % 5).length();

      EventBus bus = new EventBus();
      Listener listener = new Listener();
      bus.register(listener);
      bus.post("event" + round);
      sink += listener.seen;

      MutableGraph<String> graph = GraphBuilder.directed().build();
      graph.putEdge("a", "b");
      graph.putEdge("b", "c");
      sink += Graphs.reachableNodes(graph, "a").size();

      ListenableFuture<Integer> future = Futures.transform(Futures.immediateFuture(round), x -> x + 1,
          MoreExecutors.directExecutor());
      sink += future.get();
      sink += new TypeToken<List<String>>() {}.getRawType().getSimpleName().length();
    }
    System.out.println("guava driver done " + sink);
  }

  static final class Listener {
    int seen;

    @Subscribe
    public void on(String event) {
      seen += event.length();
    }
  }
}
