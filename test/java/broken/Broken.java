// Broken.java - does not compile: the compiler's message must reach the
// caller as compile_failed.
public class Broken {
	public static void main(String[] args) {
		int x = "not a number";
		System.out.println(x)
	}
}
