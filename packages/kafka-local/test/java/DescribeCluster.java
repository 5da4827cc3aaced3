import java.io.FileReader;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Connects with a Kafka tools-style client config (args: bootstrap servers, properties file) and prints the broker count. */
public class DescribeCluster {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    try (FileReader reader = new FileReader(args[1])) {
      props.load(reader);
    }
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    try (Admin admin = Admin.create(props)) {
      System.out.println("brokers=" + admin.describeCluster().nodes().get().size());
    }
  }
}
