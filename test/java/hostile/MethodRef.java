// MethodRef.java - Runtime.exec as a method reference: no invokevirtual,
// only a MethodHandle constant (denied all the same).
import java.util.function.Function;

public class MethodRef {
	interface Exec {
		Object run(String cmd) throws Exception;
	}

	public static void main(String[] args) {
		Exec e = Runtime.getRuntime()::exec;
		System.out.println("{\"ran\":" + (e != null) + "}");
	}
}
