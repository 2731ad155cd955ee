// Tool.java - a benign Java tool: reads a JSON object on stdin, answers
// with one JSON object. Uses what javac turns into invokedynamic (lambdas,
// method references, string concatenation, records), inner, anonymous and
// local classes, enums, switch on strings and generics, so the denylist is
// shown not to refuse ordinary code.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

public class Tool {
	enum Kind { WORD, NUMBER }

	record Token(Kind kind, String text) { }

	static class Counter {
		private final Map<String, Integer> seen = new TreeMap<>();

		void add(String s) {
			seen.merge(s, 1, Integer::sum);
		}

		Map<String, Integer> counts() {
			return seen;
		}
	}

	interface Shout {
		String apply(String s);
	}

	static String quote(String s) {
		StringBuilder b = new StringBuilder("\"");
		for (char c : s.toCharArray()) {
			switch (c) {
			case '"': b.append("\\\""); break;
			case '\\': b.append("\\\\"); break;
			default:
				if (c < 0x20)
					b.append(String.format("\\u%04x", (int) c));
				else
					b.append(c);
			}
		}
		return b.append('"').toString();
	}

	public static void main(String[] args) throws IOException {
		BufferedReader in = new BufferedReader(
		    new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String input = in.lines().collect(Collectors.joining("\n"));
		List<Token> tokens = new ArrayList<>();
		for (String w : input.split("[^A-Za-z0-9]+")) {
			if (w.isEmpty())
				continue;
			Kind k = w.chars().allMatch(Character::isDigit) ?
			    Kind.NUMBER : Kind.WORD;
			tokens.add(new Token(k, w));
		}
		Counter c = new Counter();
		tokens.forEach(t -> c.add(t.kind().name().toLowerCase()));
		Shout upper = new Shout() {
			public String apply(String s) {
				return s.toUpperCase();
			}
		};
		Function<String, Integer> len = String::length;
		String longest = tokens.stream().map(Token::text)
		    .max(Comparator.comparing(len)).orElse("");
		String mode;
		switch (tokens.size() > 3 ? "many" : "few") {
		case "many": mode = "many"; break;
		default: mode = "few";
		}
		StringBuilder out = new StringBuilder("{\"ok\":true");
		out.append(",\"tokens\":" + tokens.size());
		for (Map.Entry<String, Integer> e : c.counts().entrySet())
			out.append("," + quote(e.getKey()) + ":" + e.getValue());
		out.append(",\"longest\":" + quote(upper.apply(longest)));
		out.append(",\"mode\":" + quote(mode) + "}");
		System.out.println(out);
	}
}
