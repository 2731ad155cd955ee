// Services.java - asks ServiceLoader itself for providers of an
// interface (META-INF/services on the class path). Refused before it
// runs: ServiceLoader is on the denylist (and the class path holds no
// META-INF/services: test Plant shows the indirect way fails too).
import java.util.ServiceLoader;

public class Services {
	public static void main(String[] args) {
		for (Runnable r : ServiceLoader.load(Runnable.class))
			r.run();
		System.out.println("{\"ran\":true}");
	}
}
